/**
 * A local Messages API server for the Anthropic provider's tests: it answers `POST /v1/messages` with
 * the events Anthropic streams (`message_start`, `content_block_start` / `_delta` / `_stop` for
 * thinking, text and tool use, `ping`, `message_delta`, `message_stop`), or with an `error` event
 * mid-stream, or a plain HTTP error in Anthropic's shape. Replies are scripted: a queue, then a
 * responder function. Every request is recorded, with whether the client went away before the end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { frames, type MessageReply, message } from '../../harness/anthropic-events.mjs';

export type { MessageReply, ReplyBlock } from '../../harness/anthropic-events.mjs';
export { frames } from '../../harness/anthropic-events.mjs';

export interface HttpReply {
  status: number;
  /** Default `{ type: 'error', error: { type, message } }` for the status. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A streamed message; `stallAfter` sends that many events, then nothing more, keeping the connection open. */
export type StreamedReply = MessageReply & { stallAfter?: number };

export type Reply = StreamedReply | HttpReply;

export interface RecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a request body as sent; tests read any field.
  body: any;
  /** Whether the client went away before the reply was complete. */
  closedEarly: boolean;
}

export interface AnthropicServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  enqueue(...replies: Reply[]): void;
  readonly pending: number;
  reset(): void;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startAnthropicServer(
  respond: (body: RecordedRequest['body']) => Reply = () => ({ text: 'Hello.' }),
): Promise<AnthropicServer> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      path: req.url ?? '/',
      headers: req.headers,
      body: JSON.parse(raw || 'null'),
      closedEarly: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    if (req.method !== 'POST' || record.path !== '/v1/messages') {
      sendError(res, { status: 404, body: errorBody('not_found_error', `Unknown request ${record.path}`) });
      return;
    }
    const reply = queue.shift() ?? respond(record.body);
    if ('status' in reply) {
      sendError(res, reply);
      return;
    }
    const model = reply.model ?? record.body?.model ?? 'claude-test';
    if (reply.asJson) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(message(reply, model)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const all = frames(reply, model);
    for (const frame of all.slice(0, reply.stallAfter ?? all.length)) res.write(frame);
    if (reply.stallAfter === undefined) res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    get pending() {
      return queue.length;
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function sendError(res: ServerResponse, reply: HttpReply): void {
  const body = reply.body ?? errorBody(ERROR_TYPES[reply.status] ?? 'api_error', `HTTP ${reply.status}`);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(text);
}
