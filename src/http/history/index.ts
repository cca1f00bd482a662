/**
 * A thread's history over HTTP (FORK-2, FORK-3, FORK-6): fork it at a message, edit and resend a
 * user message (a fork with the new message), rewind it in place. The work is the thread's object's
 * (thread/history); these routes admit the new threads and name the operations.
 */
import type { OnBusy } from '../../spec/index.js';
import { type RewindAnswer, type RpcResult, threadStub } from '../../thread/bindings/index.js';
import { routeApp, unwrap } from '../contract/index.js';
import { withTurnSlot } from '../routes/index.js';
import { editMessageRoute } from './edit-route.js';
import { forkThreadRoute } from './fork-route.js';
import { startFork } from './fork-start.js';
import { rewindThreadRoute } from './rewind-route.js';

export function historyRoutes() {
  const app = routeApp();

  app.openapi(forkThreadRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { at, agent, variables } = c.req.valid('json');
    const forked = await startFork(c.env, c.get('principal'), id, {
      at,
      ...(agent ? { agent } : {}),
      ...(variables ? { variables } : {}),
    });
    return c.json(forked, 201);
  });

  app.openapi(editMessageRoute, async (c) => {
    const { id, mid } = c.req.valid('param');
    const { content, on_busy: onBusy } = c.req.valid('json');
    const principal = c.get('principal');
    const forked = await startFork(c.env, principal, id, { before: mid });
    const forkId = forked.thread.id;
    const fork = threadStub(c.env, forkId);
    const busy = onBusy ? { onBusy: onBusy as OnBusy } : {};
    const traceparent = c.req.header('traceparent');
    let messageId: string;
    try {
      // Posted as postMessage posts it (text, or parts with files). The new message starts the fork's turn, which takes a turn slot like any posted message (IDN-5).
      const posted = await withTurnSlot(c.env, principal, forkId, async () =>
        unwrap(
          typeof content === 'string'
            ? await fork.postMessage(principal, forkId, { content, ...busy, traceparent })
            : await fork.postMessageWithFiles(principal, forkId, { parts: content, ...busy, traceparent }, null),
        ),
      );
      messageId = posted.messageId;
    } catch (error) {
      // All or nothing: a fork whose message was refused is not left behind.
      await fork.destroy(principal, forkId);
      throw error;
    }
    const thread = unwrap(await fork.describe(principal, forkId));
    return c.json({ thread, message_id: messageId, not_copied: forked.not_copied }, 201);
  });

  app.openapi(rewindThreadRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { to, force } = c.req.valid('json');
    const answer = await threadStub(c.env, id).rewindThread(c.get('principal'), id, { to, force });
    // RPC's serialisation types lose the answer's type: it is the object's RpcResult.
    return c.json(unwrap(answer as RpcResult<RewindAnswer>), 200);
  });

  return app;
}
