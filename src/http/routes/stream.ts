/**
 * The thread's WebSocket (THR-2): the Worker checks the key and hands the upgrade to the thread,
 * which replays frames after `?after=` and then streams live ones.
 */
import { Hono } from 'hono';
import { threadStub } from '../../thread/bindings/index.js';
import { USER_HEADER } from '../../thread/object/index.js';
import type { HttpEnv } from '../contract/index.js';
import { errorResponse, readQuery, StreamQuery } from '../contract/index.js';
import { threadId } from './threads.js';

export function streamRoutes() {
  const app = new Hono<HttpEnv>();
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
