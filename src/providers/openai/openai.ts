/**
 * The OpenAI-compatible Chat Completions provider (THR-4): one streamed model step against any server
 * that speaks the protocol (OpenAI, OpenRouter, Groq, Ollama, vLLM, llama.cpp...). It retries
 * transient failures before the stream starts, turns every other failure into a ProviderError that
 * says what the server said (never the API key), and stops promptly when the request's signal aborts.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../engine/ports/index.js';
import { type HttpClientOptions, HttpModelClient } from '../transport/index.js';
import { NAME } from './errors.js';
import { requestBody } from './request.js';
import { readStream } from './stream.js';

export interface OpenAIProviderOptions extends HttpClientOptions {
  /** As the OpenAI SDK takes it, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string;
  apiKey?: string;
}

export class OpenAIProvider implements Provider {
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly client: HttpModelClient;

  constructor(options: OpenAIProviderOptions) {
    this.url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
    this.apiKey = options.apiKey || undefined;
    this.client = new HttpModelClient(NAME, this.apiKey, options);
  }

  complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    return this.client.step({
      url: this.url,
      init: this.requestInit(request),
      signal: request.signal,
      read: (response, progress) => readStream(response, request, handlers, progress),
    });
  }

  private requestInit(request: ModelRequest): RequestInit {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
    };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return { method: 'POST', headers, body: JSON.stringify(requestBody(request)), signal: request.signal };
  }
}
