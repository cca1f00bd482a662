/**
 * The thread's WebSocket (THR-2): the Worker checks the key and hands the upgrade to the thread,
 * which replays frames after `?after=` and then streams live ones.
 */
import { Hono } from 'hono';
import type { RuntimeEnv } from '../../thread/bindings/env.js';
import { threadStub } from '../../thread/bindings/thread-stub.js';
import { USER_HEADER } from '../../thread/object/thread-object.js';
import type { AuthVariables } from '../auth.js';
import { errorResponse } from '../errors.js';
import { readQuery } from '../request-body.js';
import { StreamQuery } from '../schemas.js';
import { threadId } from './threads.js';

export function streamRoutes() {
  const app = new Hono<{ Bindings: RuntimeEnv; Variables: AuthVariables }>();
  app.get('/:id/stream', async (c) => {
    const id = threadId(c.req.param('id'));
    readQuery(c, StreamQuery);
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return errorResponse(c, {
        status: 400,
        code: 'upgrade_required',
        message: 'open this path as a WebSocket (Upgrade: websocket)',
      });
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set(USER_HEADER, c.get('userId'));
    return threadStub(c.env, id).fetch(new Request(c.req.url, { headers }));
  });
  return app;
}
