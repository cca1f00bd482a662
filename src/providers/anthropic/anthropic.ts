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
import { type HttpClientOptions, HttpModelClient, type ReadProgress } from '../transport/index.js';
import { httpFailure, NAME } from './errors.js';
import type { ContentBlock } from './messages.js';
import { requestBody } from './request.js';
import { readStream } from './stream.js';

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
    const body = requestBody(request, (id) => this.thinking.get(id));
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
      explain: httpFailure,
    });
  }

  private async read(
    response: Response,
    request: ModelRequest,
    handlers: StreamHandlers,
    progress: ReadProgress,
  ): Promise<ModelResponse> {
    const { result, thinking } = await readStream(response, request, handlers, progress);
    this.keepThinking(result, thinking);
    return result;
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
