/**
 * One model step read from Gemini's stream (THR-4). Every SSE `data:` is a whole
 * `GenerateContentResponse`: `candidates[0].content.parts` holds text deltas and function calls
 * (each call arrives whole, with its arguments as an object and, from the Gemini API, no id),
 * `candidates[0].finishReason` arrives with the last chunk, `usageMetadata` is repeated with
 * running totals, and `modelVersion` names the model that answered.
 *
 * - Text is forwarded at once; thought parts (`thought: true`) are never answer text.
 * - Function calls get ids (`call_` and 24 random characters) unless the server sent one: the log
 *   pairs results with calls by id across the whole thread, so ids must never repeat, as a
 *   per-step counter would.
 * - The finish reason maps to the runtime's: STOP → `stop`, or `tool_calls` when the step called
 *   functions (Gemini says STOP for both); MAX_TOKENS → `length`; others lower-cased. An answer
 *   blocked by a filter (SAFETY, RECITATION, PROHIBITED_CONTENT...), a blocked prompt
 *   (`promptFeedback.blockReason`) and a malformed function call are errors that say so.
 * - Usage: prompt tokens are `promptTokenCount` (cached ones included, as Google counts them) plus
 *   tool-use prompt tokens; output tokens are candidates plus thoughts, which are billed as output.
 * - A stream that ends without a finish reason was cut off: an error, not a short answer.
 */
import type { ModelRequest, ModelResponse, ModelUsage, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import type { ToolCall } from '../../spec/index.js';
import {
  eventObject,
  isRecord,
  type ReadProgress,
  randomCallId,
  readEventStream,
  snippet,
} from '../transport/index.js';
import { googleError, NAME, reportedError } from './errors.js';

/** Finish reasons of an answer withheld by a filter, and what they mean. */
const BLOCKED: Readonly<Record<string, string>> = {
  SAFETY: 'for safety',
  IMAGE_SAFETY: 'for safety',
  RECITATION: 'as possible recitation of training data',
  IMAGE_RECITATION: 'as possible recitation of training data',
  BLOCKLIST: 'for a term on the blocklist',
  PROHIBITED_CONTENT: 'as prohibited content',
  IMAGE_PROHIBITED_CONTENT: 'as prohibited content',
  SPII: 'for sensitive personal information',
};

/** Finish reasons of a step whose function calls could not be used. */
const BROKEN_CALL: Readonly<Record<string, string>> = {
  MALFORMED_FUNCTION_CALL: 'the model produced a malformed function call',
  UNEXPECTED_TOOL_CALL: 'the model called a tool it was not offered',
};

/** Reads a successful response: an SSE stream of chunks, or (from a server that ignored `alt=sse`) JSON. */
export async function readStream(
  response: Response,
  request: ModelRequest,
  handlers: StreamHandlers,
  progress: ReadProgress,
): Promise<ModelResponse> {
  const body = response.body;
  if (!body) throw new ProviderError(`${NAME} answered ${response.status} without a body`, response.status);
  const step = new StreamedStep(request.model, handlers);
  const read = await readEventStream(body, {
    name: NAME,
    signal: request.signal,
    progress,
    onEvent: (event) => {
      step.onEvent(event.data);
      return false;
    },
  });
  if (read.events === 0) {
    if (read.comments > 0 || read.raw.trim() === '') {
      throw new ProviderError(`${NAME} answered ${response.status} but the stream ended without any data`);
    }
    step.onJsonBody(read.raw, response);
  }
  return step.result();
}

/** Builds one step's result from the chunks as they arrive, forwarding text at once. */
class StreamedStep {
  private text = '';
  private readonly calls: ToolCall[] = [];
  private usage: ModelUsage | null = null;
  private finishReason: string | null = null;

  constructor(
    private model: string,
    private readonly handlers: StreamHandlers,
  ) {}

  /** One SSE event's data. */
  onEvent(data: string): void {
    const trimmed = data.trim();
    if (trimmed === '') return;
    const chunk = eventObject(NAME, trimmed);
    this.onChunk(chunk, 'reported an error mid-stream');
  }

  /** A body that was not an event stream: one response, or the JSON array of a non-SSE stream. */
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
    const chunks = Array.isArray(body) ? body : [body];
    if (chunks.length === 0 || !chunks.every(isRecord)) {
      throw new ProviderError(`${NAME} answered with JSON that is not a GenerateContentResponse: ${snippet(raw)}`);
    }
    for (const chunk of chunks) this.onChunk(chunk, 'reported an error');
  }

  result(): ModelResponse {
    if (this.finishReason === null) {
      throw new ProviderError(`${NAME}: the stream ended before the model finished its answer (no finishReason)`);
    }
    return {
      text: this.text,
      toolCalls: this.calls,
      usage: this.usage,
      finishReason: this.mappedFinishReason(this.finishReason),
      model: this.model,
    };
  }

  private onChunk(chunk: Record<string, unknown>, what: string): void {
    const error = googleError(chunk);
    if (error) throw reportedError(error, what);
    if (typeof chunk.modelVersion === 'string' && chunk.modelVersion !== '') {
      this.model = chunk.modelVersion.replace(/^models\//, '');
    }
    if (isRecord(chunk.usageMetadata)) this.usage = toUsage(chunk.usageMetadata);
    const feedback = isRecord(chunk.promptFeedback) ? chunk.promptFeedback : {};
    if (typeof feedback.blockReason === 'string' && feedback.blockReason !== '') {
      const why = typeof feedback.blockReasonMessage === 'string' ? `: ${feedback.blockReasonMessage}` : '';
      throw new ProviderError(`${NAME}: Gemini blocked the prompt (block reason ${feedback.blockReason})${why}`);
    }
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (!isRecord(candidate)) return;
    const content = isRecord(candidate.content) ? candidate.content : {};
    for (const part of Array.isArray(content.parts) ? content.parts : []) if (isRecord(part)) this.onPart(part);
    if (typeof candidate.finishReason === 'string' && candidate.finishReason !== '') {
      this.finishReason = candidate.finishReason;
      this.checkFinish(candidate);
    }
  }

  private onPart(part: Record<string, unknown>): void {
    if (part.thought === true) return;
    if (typeof part.text === 'string' && part.text !== '') {
      this.text += part.text;
      this.handlers.onTextDelta?.(part.text);
    }
    const call = part.functionCall;
    if (isRecord(call) && typeof call.name === 'string') {
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : randomCallId('call_', 24);
      const args = isRecord(call.args) ? call.args : {};
      const argumentsText = JSON.stringify(args);
      this.calls.push({ id, type: 'function', function: { name: call.name, arguments: argumentsText } });
      // ARGS-1: Gemini sends a call whole, so its one delta is all of its arguments.
      this.handlers.onToolCallDelta?.({ id, name: call.name, argumentsText });
    }
  }

  private checkFinish(candidate: Record<string, unknown>): void {
    const reason = this.finishReason ?? '';
    const blocked = BLOCKED[reason];
    if (blocked) {
      const ratings = flaggedRatings(candidate.safetyRatings);
      throw new ProviderError(
        `${NAME}: Gemini blocked the answer ${blocked} (finish reason ${reason}${ratings ? `; ${ratings}` : ''})`,
      );
    }
    const broken = BROKEN_CALL[reason];
    if (broken) {
      const detail = typeof candidate.finishMessage === 'string' ? `: ${snippet(candidate.finishMessage)}` : '';
      throw new ProviderError(`${NAME}: ${broken} (finish reason ${reason})${detail}`);
    }
  }

  private mappedFinishReason(reason: string): string {
    if (reason === 'MAX_TOKENS') return 'length';
    if (this.calls.length > 0) return 'tool_calls';
    return reason === 'STOP' ? 'stop' : reason.toLowerCase();
  }
}

/** The safety ratings that explain a block: those marked blocked, else those rated MEDIUM or HIGH. */
function flaggedRatings(ratings: unknown): string {
  if (!Array.isArray(ratings)) return '';
  const records = ratings.filter(isRecord);
  const blocked = records.filter((rating) => rating.blocked === true);
  const flagged =
    blocked.length > 0
      ? blocked
      : records.filter((rating) => rating.probability === 'MEDIUM' || rating.probability === 'HIGH');
  return flagged.map((rating) => `${String(rating.category)}: ${String(rating.probability)}`).join(', ');
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function toUsage(usage: Record<string, unknown>): ModelUsage {
  const promptTokens = count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount);
  const completionTokens = count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount);
  const totalTokens =
    typeof usage.totalTokenCount === 'number' ? usage.totalTokenCount : promptTokens + completionTokens;
  const cached = usage.cachedContentTokenCount;
  return {
    promptTokens,
    completionTokens,
    totalTokens,
    ...(typeof cached === 'number' ? { cachedTokens: cached } : {}),
  };
}
