/**
 * Reading a Chat Completions answer (THR-4): an SSE stream of `chat.completion.chunk`s, or (from
 * servers that ignore `stream`) one `chat.completion` JSON body. Text deltas are handed on as they
 * arrive; tool calls are reassembled from their fragments (transport's ToolCallAssembler); usage,
 * the finish reason and the model that answered are taken from whichever chunk carries them.
 */
import type { ModelRequest, ModelResponse, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import {
  eventObject,
  isRecord,
  type ReadProgress,
  randomCallId,
  StepAccumulator,
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
  const step = new ChunkReader(request.model, handlers);
  const body = response.body;
  if (!body) throw new ProviderError(`${NAME} answered ${response.status} without a body`, response.status);
  const read = await step.readEvents(body, { name: NAME, signal: request.signal, progress });
  if (read.events > 0) return step.result();
  if (read.comments > 0 || read.raw.trim() === '') {
    throw new ProviderError(`${NAME} answered ${response.status} but the stream ended without any data`, undefined);
  }
  step.onJsonBody(read.raw, response);
  return step.result();
}

/** Builds the step's result from the chunks as they arrive, forwarding text deltas at once. */
class ChunkReader extends StepAccumulator {
  /** Each call's arguments so far go to the handlers as they grow (ARGS-1). */
  protected readonly toolCalls = new ToolCallAssembler(DIALECT, (delta) => this.handlers.onToolCallDelta?.(delta));

  protected readChunk(payload: string): void {
    const chunk = eventObject(NAME, payload);
    if (chunk.error !== undefined && chunk.error !== null) {
      throw reportedError(chunk.error, 'reported an error mid-stream');
    }
    this.takeMeta(chunk);
    const delta = this.firstChoice(chunk)?.delta;
    if (!isRecord(delta)) return;
    if (typeof delta.content === 'string') this.addText(delta.content);
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
    const choice = isRecord(body) ? this.firstChoice(body) : undefined;
    if (!isRecord(body) || !choice) {
      throw new ProviderError(`${NAME} answered with JSON that is not a chat completion: ${snippet(raw)}`);
    }
    this.takeMeta(body);
    const message = isRecord(choice.message) ? choice.message : {};
    if (typeof message.content === 'string') this.addText(message.content);
    if (Array.isArray(message.tool_calls)) {
      // A whole answer's calls are numbered by their place, whatever index they carry.
      message.tool_calls.forEach((call, index) => {
        if (isRecord(call)) this.toolCalls.add({ ...call, index });
      });
    }
  }
}
