/**
 * The Google Gemini provider (THR-4): one streamed model step over Gemini's native API,
 * `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse` with the key in the
 * `x-goog-api-key` header (never in the URL, so no error or log line can carry it).
 *
 * Native rather than Gemini's OpenAI-compatible endpoint (`/v1beta/openai/`): Google itself
 * recommends calling the Gemini API directly to anyone not already on the OpenAI libraries, and
 * nothing Google publishes shows the compatible layer carrying everything this runtime uses through
 * tools and streaming: thinking levels and budgets need Gemini-specific extra fields there, Gemini
 * 3's thought signatures ride in a non-standard `extra_content` of each tool call, and block
 * reasons, safety ratings, and cached- and thought-token counts are Gemini's own fields.
 *
 * Like the OpenAI-compatible provider, it retries 429, 5xx (503 is Gemini's "model overloaded") and
 * network failures before the first byte of a stream arrives, honouring `Retry-After` or the
 * error's own `RetryInfo` delay; never after (deltas may already have reached clients); stops at
 * once when the request's signal aborts; and turns every other failure into a ProviderError saying
 * what Gemini said.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../engine/ports/index.js';
import { type HttpClientOptions, HttpModelClient } from '../transport/index.js';
import { httpErrorOf, NAME } from './errors.js';
import { requestBody } from './request.js';
import { readStream } from './stream.js';

export interface GoogleProviderOptions extends HttpClientOptions {
  /** The API's origin, `https://generativelanguage.googleapis.com`, or a gateway in front of it. */
  baseURL: string;
  apiKey?: string;
}

export class GoogleProvider implements Provider {
  private readonly base: string;
  private readonly apiKey: string | undefined;
  private readonly client: HttpModelClient;

  constructor(options: GoogleProviderOptions) {
    const origin = options.baseURL.replace(/\/+$/, '');
    // A base that already names the API version (`.../v1beta`) is taken as is.
    this.base = /\/v1(alpha|beta)?\d*$/.test(origin) ? origin : `${origin}/v1beta`;
    this.apiKey = options.apiKey || undefined;
    this.client = new HttpModelClient(NAME, this.apiKey, options);
  }

  complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    const url = this.urlFor(request.model);
    return this.client.step({
      url,
      shownURL: url.split('?')[0],
      init: this.requestInit(request),
      signal: request.signal,
      read: (response, progress) => readStream(response, request, handlers, progress),
      explain: httpErrorOf,
    });
  }

  /** `models/gemini-2.5-flash`; a model id that already names its collection (`tunedModels/x`) is kept. */
  private urlFor(model: string): string {
    const path = model.includes('/') ? model : `models/${model}`;
    return `${this.base}/${path.split('/').map(encodeURIComponent).join('/')}:streamGenerateContent?alt=sse`;
  }

  private requestInit(request: ModelRequest): RequestInit {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
    };
    if (this.apiKey) headers['x-goog-api-key'] = this.apiKey;
    return { method: 'POST', headers, body: JSON.stringify(requestBody(request)), signal: request.signal };
  }
}
