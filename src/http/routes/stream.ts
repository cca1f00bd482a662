/**
 * The thread's WebSocket (THR-2): the Worker checks the key and hands the upgrade to the thread,
 * which replays frames after `?after=` and then streams live ones.
 */
import { createRoute } from '@hono/zod-openapi';
import { threadStub } from '../../thread/bindings/index.js';
import { PRINCIPAL_HEADER, principalHeaderValue } from '../../thread/object/index.js';
import {
  AUTH_FAILURES,
  errorResponse,
  failure,
  routeApp,
  StreamQuery,
  THREAD_NOT_FOUND,
  ThreadParams,
} from '../contract/index.js';

const streamThread = createRoute({
  method: 'get',
  path: '/{id}/stream',
  operationId: 'streamThread',
  tags: ['streams'],
  summary: 'The thread frames over a WebSocket',
  description:
    'Open with `Upgrade: websocket`. Each message is a frame `{ seq, type, ... }` (JSON text); `seq` counts ' +
    'from 1 without gaps. `?after=<seq>` replays the frames after it first, then live ones follow. Send ' +
    '`ping` to get `pong`. The key may travel as `?token=` (browsers set no headers on a WebSocket).',
  request: { params: ThreadParams, query: StreamQuery },
  responses: {
    101: { description: 'Switching protocols: the WebSocket of frames' },
    400: failure('`upgrade_required`: not a WebSocket upgrade; or `invalid_request`: the query is not valid'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

export function streamRoutes() {
  const app = routeApp();
  app.openapi(streamThread, async (c) => {
    const { id } = c.req.valid('param');
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return errorResponse(c, {
        status: 400,
        code: 'upgrade_required',
        message: 'open this path as a WebSocket (Upgrade: websocket)',
      });
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set(PRINCIPAL_HEADER, principalHeaderValue(c.get('principal')));
    return threadStub(c.env, id).fetch(new Request(c.req.url, { headers }));
  });
  return app;
}
