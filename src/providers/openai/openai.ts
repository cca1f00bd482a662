/**
 * The OpenAI-compatible Chat Completions provider (THR-4): one streamed model step against any server
 * that speaks the protocol (OpenAI, OpenRouter, Groq, Ollama, vLLM, llama.cpp...). It retries
 * transient failures before the stream starts, turns every other failure into a ProviderError that
 * says what the server said (never the API key), and stops promptly when the request's signal aborts.
 */
import type {
  ModelRequest,
  ModelResponse,
  ModelUsage,
  Provider,
  RequestSettings,
  StreamHandlers,
} from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  eventObject,
  type HttpClientOptions,
  HttpModelClient,
  isRecord,
  isRetryableStatus,
  type ReadProgress,
  readEventStream,
  snippet,
} from '../transport/index.js';
import { ToolCallAssembler, type ToolCallFragment } from './sse-tool-call-assembler.js';

export interface OpenAIProviderOptions extends HttpClientOptions {
  /** As the OpenAI SDK takes it, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string;
  apiKey?: string;
}

const NAME = 'OpenAI-compatible provider';

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
      read: (response, progress) => readStep(response, request, handlers, progress),
    });
  }

  private requestInit(request: ModelRequest): RequestInit {
    const body: Record<string, unknown> = {
      model: request.model,
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools.length > 0) body.tools = request.tools;
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
    Object.assign(body, settingsBody(request.settings));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
    };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return { method: 'POST', headers, body: JSON.stringify(body), signal: request.signal };
  }
}

/** The model settings in Chat Completions fields (THR-4). */
function settingsBody(settings: RequestSettings | undefined): Record<string, unknown> {
  if (!settings) return {};
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  // `max_tokens` is what every OpenAI-compatible server reads; OpenAI maps it for its reasoning models.
  if (settings.maxOutputTokens !== undefined) body.max_tokens = settings.maxOutputTokens;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.stop !== undefined) body.stop = settings.stop;
  if (settings.reasoningEffort !== undefined) body.reasoning_effort = settings.reasoningEffort;
  if (settings.responseFormat) {
    const { name, schema } = settings.responseFormat;
    body.response_format = { type: 'json_schema', json_schema: { name, schema, strict: false } };
  }
  return body;
}

/** Reads a successful response: an SSE stream of chunks, or (from servers that ignore `stream`) one JSON body. */
async function readStep(
  response: Response,
  request: ModelRequest,
  handlers: StreamHandlers,
  progress: ReadProgress,
): Promise<ModelResponse> {
  const step = new StepAccumulator(request.model, handlers);
  const body = response.body;
  if (!body) throw new ProviderError(`${NAME} answered ${response.status} without a body`, response.status);
  const read = await readEventStream(body, {
    name: NAME,
    signal: request.signal,
    progress,
    onEvent: (event) => {
      step.onData(event.data);
      return step.done;
    },
  });
  if (read.events > 0) return step.result();
  if (read.comments > 0 || read.raw.trim() === '') {
    throw new ProviderError(`${NAME} answered ${response.status} but the stream ended without any data`, undefined);
  }
  step.onJsonBody(read.raw, response);
  return step.result();
}

/** Builds the step's result from the chunks as they arrive, forwarding text deltas at once. */
class StepAccumulator {
  events = 0;
  done = false;
  private text = '';
  private usage: ModelUsage | null = null;
  private finishReason: string | null = null;
  private readonly toolCalls = new ToolCallAssembler();

  constructor(
    private model: string,
    private readonly handlers: StreamHandlers,
  ) {}

  onData(data: string): void {
    this.events++;
    const trimmed = data.trim();
    if (trimmed === '') return;
    if (trimmed === '[DONE]') {
      this.done = true;
      return;
    }
    const chunk = eventObject(NAME, trimmed);
    if (chunk.error !== undefined && chunk.error !== null) {
      throw reportedError(chunk.error, 'reported an error mid-stream');
    }
    this.onMeta(chunk);
    const choice = firstChoice(chunk);
    if (!choice) return;
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!isRecord(delta)) return;
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      this.handlers.onTextDelta?.(delta.content);
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const fragment of delta.tool_calls) if (isRecord(fragment)) this.toolCalls.add(fragment as ToolCallFragment);
    }
  }

  /** A whole non-streamed answer: an error object or a `chat.completion`. */
  onJsonBody(raw: string, response: Response): void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      const type = response.headers.get('content-type') ?? 'none';
      throw new ProviderError(
        `${NAME} answered ${response.status} with a body that is neither an SSE stream nor JSON (content-type ${type}): ${snippet(raw)}`,
      );
    }
    if (isRecord(body) && body.error !== undefined && body.error !== null) {
      throw reportedError(body.error, 'reported an error');
    }
    const choice = isRecord(body) ? firstChoice(body) : undefined;
    if (!isRecord(body) || !choice) {
      throw new ProviderError(`${NAME} answered with JSON that is not a chat completion: ${snippet(raw)}`);
    }
    this.onMeta(body);
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    const message = isRecord(choice.message) ? choice.message : {};
    if (typeof message.content === 'string' && message.content !== '') {
      this.text = message.content;
      this.handlers.onTextDelta?.(message.content);
    }
    if (Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call, index) => {
        if (isRecord(call)) this.toolCalls.add({ ...(call as ToolCallFragment), index });
      });
    }
  }

  result(): ModelResponse {
    return {
      text: this.text,
      toolCalls: this.toolCalls.finish(),
      usage: this.usage,
      finishReason: this.finishReason,
      model: this.model,
    };
  }

  private onMeta(chunk: Record<string, unknown>): void {
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    if (isRecord(chunk.usage)) this.usage = toUsage(chunk.usage);
  }
}

function toUsage(usage: Record<string, unknown>): ModelUsage {
  const promptTokens = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const completionTokens = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  const totalTokens = typeof usage.total_tokens === 'number' ? usage.total_tokens : promptTokens + completionTokens;
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = typeof details.cached_tokens === 'number' ? details.cached_tokens : undefined;
  return { promptTokens, completionTokens, totalTokens, ...(cached !== undefined ? { cachedTokens: cached } : {}) };
}

function firstChoice(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  return isRecord(choice) ? choice : undefined;
}

/** An `error` object in a 200 body; its numeric `code`, when it looks like an HTTP status, becomes the status. */
function reportedError(error: unknown, what: string): ProviderError {
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : snippet(JSON.stringify(error));
  const code = isRecord(error) ? Number(error.code) : Number.NaN;
  const status = Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
  return new ProviderError(`${NAME} ${what}: ${message}`, status, status !== undefined && isRetryableStatus(status));
}
