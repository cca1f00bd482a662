/**
 * The thread's frames as Server-Sent Events (THR-2): `GET /api/threads/:id/events`, for clients
 * that read an event stream more easily than a WebSocket (EventSource, curl, proxies that pass only
 * HTTP). The same frames as `/stream`, in order, each once: the event id is the frame's seq, and
 * `Last-Event-ID` (or `?after=`) is the last one seen.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../../thread/bindings/index.js';
import {
  AUTH_FAILURES,
  EventsHeaders,
  EventsQuery,
  failure,
  HttpError,
  routeApp,
  THREAD_NOT_FOUND,
  ThreadParams,
} from '../contract/index.js';
import { HEARTBEAT_MS, openFrameEvents } from '../frames/index.js';

export interface EventRoutesOptions {
  /** How often an idle stream gets a `: heartbeat` comment; 15 s unless a test says otherwise. */
  heartbeatMs?: number;
}

const streamThreadEvents = createRoute({
  method: 'get',
  path: '/{id}/events',
  operationId: 'streamThreadEvents',
  tags: ['streams'],
  summary: 'The thread frames as Server-Sent Events',
  description:
    'Starts with `retry: 1000`. Each frame is an event `id: <seq>`, `event: frame`, `data: <frame JSON>`; ' +
    'the replay after `Last-Event-ID` (or `?after=`) comes first, then live frames, in order, none twice. ' +
    'A `: heartbeat` comment comes every 15 s. The key may travel as `?token=` (EventSource sets no headers).',
  request: { params: ThreadParams, query: EventsQuery, headers: EventsHeaders },
  responses: {
    200: {
      description: 'The event stream, open until the client closes it',
      content: {
        'text/event-stream': {
          schema: z
            .string()
            .openapi({ example: 'retry: 1000\n\nid: 1\nevent: frame\ndata: {"seq":1,"type":"status"}\n\n' }),
        },
      },
    },
    400: failure('`invalid_request`: the query or Last-Event-ID is not valid'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
    503: failure('`stream_unavailable`: the thread could not be reached, try again; or `auth_not_configured`'),
  },
});

export function eventRoutes(options: EventRoutesOptions = {}) {
  const app = routeApp();
  app.openapi(streamThreadEvents, async (c) => {
    const { id } = c.req.valid('param');
    const lastEventId = c.req.valid('header')['last-event-id'];
    const events = await openFrameEvents({
      env: c.env,
      principal: c.get('principal'),
      threadId: id,
      after: lastEventId ?? c.req.valid('query').after ?? 0,
      heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
      signal: c.req.raw.signal,
    });
    if (events === 'gone') throw new HttpError(notFound(id));
    if (events === 'lost') {
      throw new HttpError({
        status: 503,
        code: 'stream_unavailable',
        message: `the stream of thread ${id} could not be opened`,
      });
    }
    return new Response(events, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform' },
    });
  });
  return app;
}
