/**
 * Answers to waiting tool calls (THR-5; the routes are listed in docs/api.md): `answers` for the
 * question tool (LOCK-1), `approvals` for calls that need a human's consent (KIND-5, PERM-2),
 * `tool-results` for client and human-in-the-loop tools (KIND-3, KIND-4), `secrets` for
 * `store_secret` (VAR-5). Each resumes the thread, so it holds a turn slot first (IDN-5: kept
 * since the turn began, or taken again if its lease ran out during a long wait); an answer for a call
 * that does not wait for it is a 409.
 */
import { createRoute } from '@hono/zod-openapi';
import type { ZodType } from 'zod';
import { threadStub } from '../../thread/bindings/index.js';
import {
  AnswersBody,
  ApprovalsBody,
  AUTH_FAILURES,
  failure,
  json,
  jsonBody,
  jsonRequest,
  routeApp,
  SecretsBody,
  THREAD_NOT_FOUND,
  ThreadDetailsSchema,
  ThreadParams,
  ToolResultsBody,
  unwrap,
} from '../contract/index.js';
import { TURN_SLOT_REFUSED, withTurnSlot } from './turn-admission.js';

/** An answer route: the thread in the path, a JSON body, the thread resumed or why not. */
function answerRoute<T extends ZodType>(
  path: string,
  operationId: string,
  summary: string,
  body: T,
  refusals: { 400: string; 409: string; 500?: string },
) {
  return createRoute({
    method: 'post',
    path,
    operationId,
    tags: ['interactions'],
    summary,
    middleware: [jsonBody()],
    request: { params: ThreadParams, body: jsonRequest(body) },
    responses: {
      200: json(ThreadDetailsSchema, 'The thread, resumed'),
      400: failure(refusals[400]),
      404: THREAD_NOT_FOUND,
      409: failure(refusals[409]),
      413: failure('`body_too_large`: JSON bodies are limited to 1 MiB'),
      429: TURN_SLOT_REFUSED,
      ...(refusals[500] ? { 500: failure(refusals[500]) } : {}),
      ...AUTH_FAILURES,
    },
  });
}

const answerQuestion = answerRoute(
  '/{id}/answers',
  'answerQuestion',
  'Answer a waiting question tool call: one list of answers per question',
  AnswersBody,
  {
    400: '`invalid_request`: the body, or not one list of answers per question',
    409: 'The call does not wait for answers, or was answered already',
  },
);

const answerApproval = answerRoute(
  '/{id}/approvals',
  'answerApproval',
  'Approve (once or always) or reject a call waiting for approval',
  ApprovalsBody,
  { 400: '`invalid_request`: the body', 409: 'The call does not wait for approval, or was answered already' },
);

const submitToolResult = answerRoute(
  '/{id}/tool-results',
  'submitToolResult',
  "Deliver a client tool's output or a human-in-the-loop answer for a waiting call",
  ToolResultsBody,
  {
    400: "`invalid_request`: the body, or an output that does not match the tool's output schema",
    409: 'The call does not wait for a tool result, or was answered already',
  },
);

const storeSecret = answerRoute(
  '/{id}/secrets',
  'storeSecret',
  'Enter the credential a store_secret call waits for (VAR-5): sealed into the thread variables, never shown to the model',
  SecretsBody,
  {
    400: '`invalid_request`, or `secret_too_short`: the value is under 8 characters (the call keeps waiting)',
    409: 'The call does not wait for a secret, or was answered already',
    500: '`secrets_key_missing`: the SECRETS_KEY Worker secret is not set',
  },
);

export function interactionRoutes() {
  const app = routeApp();

  app.openapi(answerQuestion, async (c) => {
    const { id } = c.req.valid('param');
    const { tool_call_id, answers } = c.req.valid('json');
    const [stub, principal] = [threadStub(c.env, id), c.get('principal')];
    const answered = withTurnSlot(c.env, principal, id, async () =>
      unwrap(await stub.answer(principal, id, 'question', tool_call_id, answers)),
    );
    return c.json(await answered, 200);
  });

  app.openapi(answerApproval, async (c) => {
    const { id } = c.req.valid('param');
    const { tool_call_id, ...answer } = c.req.valid('json');
    const [stub, principal] = [threadStub(c.env, id), c.get('principal')];
    const answered = withTurnSlot(c.env, principal, id, async () =>
      unwrap(await stub.answer(principal, id, 'approval', tool_call_id, answer)),
    );
    return c.json(await answered, 200);
  });

  app.openapi(submitToolResult, async (c) => {
    const { id } = c.req.valid('param');
    const { tool_call_id, output } = c.req.valid('json');
    const [stub, principal] = [threadStub(c.env, id), c.get('principal')];
    const kinds = ['client_tool', 'hitl'] as const;
    const answered = withTurnSlot(c.env, principal, id, async () =>
      unwrap(await stub.answer(principal, id, kinds, tool_call_id, output ?? null)),
    );
    return c.json(await answered, 200);
  });

  // VAR-5: the value goes to the thread's sealed variables only; the call is answered without it.
  app.openapi(storeSecret, async (c) => {
    const { id } = c.req.valid('param');
    const { tool_call_id, value } = c.req.valid('json');
    const [stub, principal] = [threadStub(c.env, id), c.get('principal')];
    const answered = withTurnSlot(c.env, principal, id, async () =>
      unwrap(await stub.storeSecret(principal, id, tool_call_id, value)),
    );
    return c.json(await answered, 200);
  });

  return app;
}
