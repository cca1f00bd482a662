/**
 * The Anthropic provider (THR-4): one streamed model step against the Messages API,
 * `POST {baseURL}/v1/messages` with `x-api-key` and `anthropic-version: 2023-06-01`. It retries rate
 * limits (429), overloads (529) and other 5xx answers after the server's `retry-after`, and an
 * `overloaded_error` or cut connection mid-stream as long as no text reached the client; turns
 * every other failure into a ProviderError that quotes Anthropic's error type and message (never
 * the key); and stops promptly when the request's signal aborts.
 *
 * The thinking blocks of a step that called tools are kept by the provider, by call id, for the
 * step that sends the results back (see request.ts): one instance serves a side's turn.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  errorMessageOf,
  type HttpClientOptions,
  HttpModelClient,
  isRecord,
  type ReadProgress,
  readEventStream,
  snippet,
} from '../transport/index.js';
import type { ContentBlock } from './messages.js';
import { buildRequest } from './request.js';
import { MessageAccumulator, NAME } from './stream.js';

export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions extends HttpClientOptions {
  /**
   * As Anthropic's SDKs take it, without `/v1`: `https://api.anthropic.com`, or a gateway's. A base
   * URL that already ends in `/v1` is accepted too.
   */
  baseURL: string;
  apiKey?: string;
}

/** How many steps' thinking one instance keeps: a turn's tool loop is far shorter. */
const KEPT_THINKING = 64;

export class AnthropicProvider implements Provider {
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly client: HttpModelClient;
  /** Thinking blocks by the id of the first tool call of their step, oldest first. */
  private readonly thinking = new Map<string, ContentBlock[]>();

  constructor(options: AnthropicProviderOptions) {
    const base = options.baseURL.replace(/\/+$/, '');
    this.url = /\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`;
    this.apiKey = options.apiKey || undefined;
    this.client = new HttpModelClient(NAME, this.apiKey, options);
  }

  complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    const body = buildRequest(request, (id) => this.thinking.get(id));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
      'anthropic-version': ANTHROPIC_VERSION,
    };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    return this.client.step({
      url: this.url,
      init: { method: 'POST', headers, body: JSON.stringify(body), signal: request.signal },
      signal: request.signal,
      read: (response, progress) => this.read(response, request, handlers, progress),
      explain: async (response) => ({ message: `${NAME} answered ${response.status}: ${await errorDetail(response)}` }),
    });
  }

  private async read(
    response: Response,
    request: ModelRequest,
    handlers: StreamHandlers,
    progress: ReadProgress,
  ): Promise<ModelResponse> {
    const step = new MessageAccumulator(request.model, handlers);
    try {
      const result = await readMessage(response, request, step);
      this.keepThinking(result, step.thinkingBlocks());
      return result;
    } finally {
      // Until text reached the client a retry repeats nothing; thinking and tool input are not shown.
      progress.consumed = step.emitted;
    }
  }

  private keepThinking(result: ModelResponse, blocks: ContentBlock[]): void {
    const first = result.toolCalls[0];
    if (!first || blocks.length === 0) return;
    this.thinking.set(first.id, blocks);
    for (const id of this.thinking.keys()) {
      if (this.thinking.size <= KEPT_THINKING) break;
      this.thinking.delete(id);
    }
  }
}

/** Reads a successful response into `step`: an SSE stream, or one JSON message from a server that ignored `stream`. */
async function readMessage(
  response: Response,
  request: ModelRequest,
  step: MessageAccumulator,
): Promise<ModelResponse> {
  const body = response.body;
  if (!body) throw new ProviderError(`${NAME} answered ${response.status} without a body`, response.status);
  const read = await readEventStream(body, {
    name: NAME,
    signal: request.signal,
    progress: { consumed: false },
    onEvent: (event) => {
      step.onEvent(event.data);
      return step.done;
    },
  });
  if (read.events === 0) {
    if (read.comments > 0 || read.raw.trim() === '') {
      throw new ProviderError(
        `${NAME} answered ${response.status} but the stream ended without any event`,
        undefined,
        true,
      );
    }
    step.onJson(read.raw, response);
  } else if (!step.done) {
    // A message is complete only at message_stop: a cut stream may hold half a tool call.
    const where = step.started ? 'before message_stop' : 'before message_start';
    throw new ProviderError(`${NAME}: the stream ended ${where}`, undefined, true);
  }
  return step.result();
}

/**
 * Anthropic's explanation of a failed request: `{ type: 'error', error: { type, message } }` as
 * "overloaded_error: Overloaded", other vendors' JSON by its message, else the text; with the
 * `request-id` Anthropic's support asks for.
 */
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let detail: string | null = null;
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    if (isRecord(error) && typeof error.type === 'string' && typeof error.message === 'string') {
      detail = `${error.type}: ${error.message}`;
    } else {
      detail = errorMessageOf(body);
    }
  } catch {
    // Not JSON: the text itself is the best explanation there is.
  }
  detail ??= snippet(text) || response.statusText || 'no details given';
  const requestId = response.headers.get('request-id');
  return requestId ? `${detail} (request-id ${requestId})` : detail;
}
