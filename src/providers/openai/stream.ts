/**
 * Reading a Chat Completions answer (THR-4): an SSE stream of `chat.completion.chunk`s, or (from
 * servers that ignore `stream`) one `chat.completion` JSON body. Text deltas are handed on as they
 * arrive; tool calls are reassembled from their fragments (transport's ToolCallAssembler); usage,
 * the finish reason and the model that answered are taken from whichever chunk carries them.
 */
import type { ModelRequest, ModelResponse, ModelUsage, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  eventObject,
  isRecord,
  type ReadProgress,
  randomCallId,
  readEventStream,
  snippet,
  ToolCallAssembler,
  type ToolCallDialect,
} from '../transport/index.js';
import { NAME, reportedError } from './errors.js';

/** Ids in OpenAI's shape for servers that send none; calls come only in the Chat Completions shape. */
const DIALECT: ToolCallDialect = { newId: () => randomCallId('call_', 24), flatCalls: false };

/** Reads a successful response: an SSE stream of chunks, or (from servers that ignore `stream`) one JSON body. */
export async function readStream(
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
  done = false;
  private text = '';
  private usage: ModelUsage | null = null;
  private finishReason: string | null = null;
  private readonly toolCalls = new ToolCallAssembler(DIALECT);

  constructor(
    private model: string,
    private readonly handlers: StreamHandlers,
  ) {}

  onData(data: string): void {
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
    this.toolCalls.addAll(delta.tool_calls);
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
      // A whole answer's calls are numbered by their place, whatever index they carry.
      message.tool_calls.forEach((call, index) => {
        if (isRecord(call)) this.toolCalls.add({ ...call, index });
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
