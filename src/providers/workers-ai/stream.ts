/**
 * Reads what `env.AI.run` answered into one model step (THR-4), in either of the two shapes Workers
 * AI's text-generation models use:
 *
 * - the native one: streamed as `data: {"response":"<text>","p":"<padding>"}` events, tool calls
 *   under a top-level `tool_calls`, a last `data: {"response":"","usage":{...}}` and `data: [DONE]`;
 *   unstreamed as `{ response, tool_calls, usage }` (in JSON mode `response` is the parsed object);
 * - the Chat Completions one (GLM, Kimi, gpt-oss, Gemma 4, Qwen 3, ...): `chat.completion.chunk`s
 *   with `choices[0].delta`, followed by the same native usage event; unstreamed a `chat.completion`.
 *
 * Text deltas are handed on as they arrive. Usage is the last one reported: Chat Completions chunks
 * report zeros or running totals before the final totals arrive in the native usage event.
 */
import type { ModelRequest, ModelResponse, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  isRecord,
  type ReadProgress,
  randomCallId,
  StepAccumulator,
  snippet,
  ToolCallAssembler,
  type ToolCallDialect,
} from '../transport/index.js';
import { isByteStream } from './binding.js';
import { bindingFailure, NAME } from './errors.js';

/**
 * Tool calls come in the OpenAI shape or the older flat one. An id the model did not send is nine
 * letters and digits: the binding once accepted no other `tool_call_id` (the pattern
 * `[a-zA-Z0-9]{9}`), so an id of this shape is replayed safely to every model, old or new.
 */
const DIALECT: ToolCallDialect = { newId: () => randomCallId('', 9), flatCalls: true };

/** What `run` resolved to: a byte stream (server-sent events, or a JSON body), or the parsed output. */
export async function readStream(
  output: unknown,
  request: ModelRequest,
  handlers: StreamHandlers,
  progress: ReadProgress,
): Promise<ModelResponse> {
  const reader = new AnswerReader(request.model, handlers);
  if (!isByteStream(output)) {
    reader.onWholeAnswer(output);
    return reader.result();
  }
  const read = await reader.readEvents(output, { name: NAME, signal: request.signal, progress });
  if (read.events > 0) return reader.result();
  const raw = read.raw.trim();
  if (raw === '') {
    throw new ProviderError(`${NAME} answered ${request.model} with a stream that ended without any data`);
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ProviderError(
      `${NAME} answered ${request.model} with a body that is neither server-sent events nor JSON: ${snippet(raw)}`,
    );
  }
  reader.onWholeAnswer(body);
  return reader.result();
}

/** Builds one step's result from the events, or the whole answer, forwarding text at once. */
class AnswerReader extends StepAccumulator {
  /** Each call's arguments so far go to the handlers as they grow (ARGS-1). */
  protected readonly toolCalls = new ToolCallAssembler(DIALECT, (delta) => this.handlers.onToolCallDelta?.(delta));

  protected readChunk(payload: string): void {
    let chunk: unknown;
    try {
      chunk = JSON.parse(payload);
    } catch {
      // Events framed by single newlines reach the parser as one event of several `data:` lines.
      if (payload.includes('\n')) {
        for (const line of payload.split('\n')) this.onEvent(line.replace(/^data:\s?/, ''));
        return;
      }
      throw new ProviderError(`${NAME} sent a stream event that is not JSON: ${snippet(payload)}`);
    }
    if (!isRecord(chunk)) {
      throw new ProviderError(`${NAME} sent a stream event that is not an object: ${snippet(payload)}`);
    }
    if (chunk.error !== undefined && chunk.error !== null) {
      throw bindingFailure(chunk.error, this.model, 'reported an error mid-stream');
    }
    this.takeMeta(chunk);
    this.addOutputText(chunk.response);
    this.toolCalls.addAll(chunk.tool_calls);
    const delta = this.firstChoice(chunk)?.delta;
    if (!isRecord(delta)) return;
    this.addOutputText(delta.content);
    this.toolCalls.addAll(delta.tool_calls);
  }

  /** A whole, unstreamed answer: the native output, a `chat.completion`, or bare text. */
  onWholeAnswer(output: unknown): void {
    this.done = true;
    if (typeof output === 'string') {
      this.addOutputText(output);
      return;
    }
    if (!isRecord(output)) {
      throw new ProviderError(`${NAME} answered with something that is not a model output: ${describeValue(output)}`);
    }
    if (output.error !== undefined && output.error !== null) throw bindingFailure(output.error, this.model);
    this.takeMeta(output);
    const choice = this.firstChoice(output);
    const message = choice && isRecord(choice.message) ? choice.message : undefined;
    if (!message && !('response' in output) && !('tool_calls' in output)) {
      throw new ProviderError(`${NAME} answered with JSON that is not a model output: ${describeValue(output)}`);
    }
    this.addOutputText(message ? message.content : output.response);
    this.toolCalls.addAll(message ? message.tool_calls : output.tool_calls, true);
  }

  /** Native answers name no finish reason; a complete one ended by choice, or to call tools. */
  protected override unnamedFinishReason(calledTools: boolean): string | null {
    return this.done ? (calledTools ? 'tool_calls' : 'stop') : null;
  }

  /** Native answers also name their finish reason at the top level. */
  protected override takeMeta(chunk: Record<string, unknown>): void {
    super.takeMeta(chunk);
    if (typeof chunk.finish_reason === 'string') this.finishReason = chunk.finish_reason;
  }

  /** Text as the binding sends it: a string, a number it failed to quote, or (JSON mode) an object. */
  private addOutputText(value: unknown): void {
    if (value === undefined || value === null) return;
    this.addText(typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}

function describeValue(value: unknown): string {
  try {
    return snippet(JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}
