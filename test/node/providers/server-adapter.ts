/**
 * A conformance adapter over a local vendor server (openai, google, anthropic): what the three share
 * is the server's life (start, reset, close), the provider built against it with a zero sleep and
 * the sourced fetch, a failure scripted as the vendor's error body with an optional Retry-After, and
 * reading back what the server recorded. Each vendor file supplies only its own wire: how an answer,
 * an error body and a request's images look in its protocol.
 */
import type { Provider } from '../../../src/engine/ports/index.js';
import type { HttpClientOptions } from '../../../src/providers/transport/index.js';
import type { Answer, FailureStatus, ProviderAdapter, SentImage } from './adapter.js';
import { sourcedFetch } from './adapter.js';

/** A plain HTTP answer as every local server takes it. */
interface ServerFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the adapter needs of a local server; `Reply` is its streamed answer. */
export interface LocalServer<Reply> {
  readonly requests: { closedEarly: boolean }[];
  enqueue(...replies: (Reply | ServerFailure)[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** One vendor's wire, for `serverAdapter`. */
export interface VendorWire<Server extends LocalServer<Reply>, Reply> {
  name: string;
  errorName: string;
  model: string;
  argumentsAsText: boolean;
  /** Says which server in the error when the adapter is used before `start`. */
  serverName: string;
  startServer(): Promise<Server>;
  /** The vendor's provider against `server`; `options` carry the zero sleep, the fetch and the test's retry options. */
  provider(server: Server, options: HttpClientOptions): Provider;
  reply(answer: Answer): Reply;
  errorBody(status: FailureStatus, message: string): unknown;
  failureMessage(status: FailureStatus, message: string): string;
  frames(answer: Answer): string[];
  /** The images the request carried, in order. */
  imagesSent(request: Server['requests'][number] | undefined): SentImage[];
  /** The content of the request's first user turn, as the vendor received it. */
  userTurnSent(request: Server['requests'][number] | undefined): unknown;
}

export function serverAdapter<Server extends LocalServer<Reply>, Reply>(
  wire: VendorWire<Server, Reply>,
): ProviderAdapter {
  let server: Server | undefined;
  const live = (): Server => {
    if (!server) throw new Error(`the ${wire.serverName} server is not started`);
    return server;
  };
  return {
    name: wire.name,
    errorName: wire.errorName,
    model: wire.model,
    asksForWaits: true,
    argumentsAsText: wire.argumentsAsText,
    async start() {
      server = await wire.startServer();
    },
    close: () => live().close(),
    reset: () => live().reset(),
    provider: (options = {}, sources = []) =>
      wire.provider(live(), { sleep: async () => {}, fetch: sourcedFetch(sources), ...options }),
    answer: (...answers) => live().enqueue(...answers.map(wire.reply)),
    fail(status, message, retryAfterSeconds) {
      live().enqueue({
        status,
        body: wire.errorBody(status, message),
        ...(retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } }),
      });
    },
    failureMessage: wire.failureMessage,
    frames: wire.frames,
    calls: () => live().requests.length,
    closedEarly: (index) => live().requests[index]?.closedEarly === true,
    imagesSent: (index) => wire.imagesSent(live().requests[index]),
    userTurnSent: (index) => wire.userTurnSent(live().requests[index]),
  };
}
