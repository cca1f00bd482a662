/**
 * One model step built from an answer in the Chat Completions family (THR-4), what the openai and
 * workers-ai readers share: the text so far, each piece handed on as it arrives; the usage, finish
 * reason and model that the answer last reported; the tool calls from their fragments; and the
 * `[DONE]` event that ends a stream. Each reader adds only how its vendor frames these: an event's
 * JSON, where in a chunk the text and calls are, what a whole unstreamed answer looks like.
 */
import type { ModelResponse, ModelUsage, StreamHandlers } from '../../engine/ports/index.js';
import { type EventStreamOptions, type EventStreamRead, readEventStream } from './event-stream.js';
import { isRecord } from './http-text.js';
import type { ToolCallAssembler } from './tool-call-assembler.js';

export abstract class StepAccumulator {
  /** `data: [DONE]` arrived, or a whole answer was read. */
  done = false;
  protected text = '';
  protected usage: ModelUsage | null = null;
  protected finishReason: string | null = null;
  protected abstract readonly toolCalls: ToolCallAssembler;

  constructor(
    protected model: string,
    protected readonly handlers: StreamHandlers,
  ) {}

  result(): ModelResponse {
    const toolCalls = this.toolCalls.finish();
    return {
      text: this.text,
      toolCalls,
      usage: this.usage,
      finishReason: this.finishReason ?? this.unnamedFinishReason(toolCalls.length > 0),
      model: this.model,
    };
  }

  /** The finish reason of an answer that named none; a vendor whose answers never name one derives it. */
  protected unnamedFinishReason(_calledTools: boolean): string | null {
    return null;
  }

  /** Reads an event stream into this step, up to its `[DONE]` or its end; what was read tells the caller whether it held events. */
  readEvents(body: ReadableStream<Uint8Array>, options: Omit<EventStreamOptions, 'onEvent'>): Promise<EventStreamRead> {
    return readEventStream(body, {
      ...options,
      onEvent: (event) => {
        this.onEvent(event.data);
        return this.done;
      },
    });
  }

  /** One server-sent event's data; blank events are skipped and `[DONE]` ends the stream. */
  protected onEvent(data: string): void {
    const trimmed = data.trim();
    if (trimmed === '[DONE]') this.done = true;
    else if (trimmed !== '') this.readChunk(trimmed);
  }

  /** One event's data, trimmed and not blank, in the vendor's framing. */
  protected abstract readChunk(payload: string): void;

  /** A piece of the answer's text, kept and handed on at once. */
  protected addText(piece: string): void {
    if (piece === '') return;
    this.text += piece;
    this.handlers.onTextDelta?.(piece);
  }

  /** The model that answered and the usage, from whichever chunk carries them. */
  protected takeMeta(chunk: Record<string, unknown>): void {
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    if (isRecord(chunk.usage)) this.usage = toUsage(chunk.usage);
  }

  /** A chunk's or a whole answer's `choices[0]`, with its finish reason taken when it names one. */
  protected firstChoice(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) return undefined;
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    return choice;
  }
}

/** Counts that are not finite numbers (an overflowing literal parses as Infinity) read as 0. */
function toUsage(usage: Record<string, unknown>): ModelUsage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const promptTokens = count(usage.prompt_tokens);
  const completionTokens = count(usage.completion_tokens);
  const totalTokens = typeof usage.total_tokens === 'number' ? usage.total_tokens : promptTokens + completionTokens;
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = typeof details.cached_tokens === 'number' ? details.cached_tokens : undefined;
  return { promptTokens, completionTokens, totalTokens, ...(cached !== undefined ? { cachedTokens: cached } : {}) };
}
