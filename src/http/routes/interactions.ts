/**
 * Answers to waiting tool calls (THR-5; the routes are listed in the README): `answers` for the
 * question tool (LOCK-1), `approvals` for calls that need a human's consent (KIND-5, PERM-2),
 * `tool-results` for client and human-in-the-loop tools (KIND-3, KIND-4), `secrets` for
 * `store_secret` (VAR-5). Each resumes the thread; an answer for a call that does not wait for it
 * is a 409.
 */
import { Hono } from 'hono';
import { threadStub } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import { AnswersBody, ApprovalsBody, readJson, SecretsBody, ToolResultsBody, unwrap } from '../contract/index.js';
import { threadId } from './threads.js';

export function interactionRoutes() {
  const app = new Hono<HttpEnv>();

  app.post('/:id/answers', async (c) => {
    const id = threadId(c.req.param('id'));
    const body = await readJson(c, AnswersBody);
    const stub = threadStub(c.env, id);
    return c.json(unwrap(await stub.answer(c.get('userId'), id, 'question', body.tool_call_id, body.answers)));
  });

  app.post('/:id/approvals', async (c) => {
    const id = threadId(c.req.param('id'));
    const { tool_call_id, ...answer } = await readJson(c, ApprovalsBody);
    const stub = threadStub(c.env, id);
    return c.json(unwrap(await stub.answer(c.get('userId'), id, 'approval', tool_call_id, answer)));
  });

  app.post('/:id/tool-results', async (c) => {
    const id = threadId(c.req.param('id'));
    const { tool_call_id, output } = await readJson(c, ToolResultsBody);
    const stub = threadStub(c.env, id);
    return c.json(
      unwrap(await stub.answer(c.get('userId'), id, ['client_tool', 'hitl'], tool_call_id, output ?? null)),
    );
  });

  // VAR-5: the value goes to the thread's sealed variables only; the call is answered without it.
  app.post('/:id/secrets', async (c) => {
    const id = threadId(c.req.param('id'));
    const { tool_call_id, value } = await readJson(c, SecretsBody);
    const stub = threadStub(c.env, id);
    return c.json(unwrap(await stub.storeSecret(c.get('userId'), id, tool_call_id, value)));
  });

  return app;
}
