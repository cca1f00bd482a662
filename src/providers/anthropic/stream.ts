/**
 * Reads a Messages API answer (THR-4): the server-sent events of a streamed message, or (from a
 * server that ignored `stream`) one JSON message. Text blocks stream to the client as they arrive;
 * `tool_use` blocks are assembled from their `input_json_delta` fragments; thinking blocks never
 * become answer text, but are kept whole, signature included, so they can be sent back with the
 * step's tool results. Usage counts cached input as input: promptTokens is input plus cache reads
 * plus cache writes, cachedTokens the cache reads. A message is complete only at `message_stop`.
 */
import type { ModelRequest, ModelResponse, ModelUsage, StreamHandlers } from '../../engine/ports/index.js';
import { ProviderError } from '../../engine/ports/index.js';
import type { ToolCall } from '../../spec/index.js';
import { eventObject, isRecord, type ReadProgress, readEventStream, snippet } from '../transport/index.js';
import { anthropicError, NAME } from './errors.js';
import type { ContentBlock } from './messages.js';

/** A step's answer, and the thinking blocks that must go back with its tool results. */
export interface ReadMessage {
  result: ModelResponse;
  thinking: ContentBlock[];
}

/** Reads a successful response: an SSE stream, or one JSON message from a server that ignored `stream`. */
export async function readStream(
  response: Response,
  request: ModelRequest,
  handlers: StreamHandlers,
  progress: ReadProgress,
): Promise<ReadMessage> {
  const step = new MessageAccumulator(request.model, handlers);
  try {
    const result = await readMessage(response, request, step);
    return { result, thinking: step.thinkingBlocks() };
  } finally {
    // Until text reached the client a retry repeats nothing; thinking and tool input are not shown.
    progress.consumed = step.emitted;
  }
}

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

/** Anthropic's stop reasons in the runtime's (Chat Completions) words; others pass as they are. */
const FINISH_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
};

function finishReason(stopReason: string): string {
  return FINISH_REASONS[stopReason] ?? stopReason;
}

interface Block {
  type: string;
  /** text, or thinking text */
  text: string;
  /** tool_use */
  id: string;
  name: string;
  json: string;
  /** tool_use input given whole in content_block_start (no deltas follow for a call without arguments) */
  input: unknown;
  /** thinking */
  signature: string;
  /** redacted_thinking */
  data: string;
}

/** Builds one step's result from the events as they arrive. */
class MessageAccumulator {
  /** Set at `message_stop`: the message is complete and reading may stop. */
  done = false;
  /** Whether text reached the handlers: after that, a retry would repeat it. */
  emitted = false;
  started = false;
  private readonly blocks = new Map<number, Block>();
  private usage: Record<string, number> = {};
  private stopReason: string | null = null;

  constructor(
    private model: string,
    private readonly handlers: StreamHandlers,
  ) {}

  /** One SSE event's data. */
  onEvent(data: string): void {
    const trimmed = data.trim();
    if (trimmed === '') return;
    const event = eventObject(NAME, trimmed);
    if (typeof event.type !== 'string') {
      throw new ProviderError(`${NAME} sent a stream event without a type: ${snippet(trimmed)}`);
    }
    switch (event.type) {
      case 'message_start':
        this.started = true;
        if (isRecord(event.message)) this.onMessage(event.message);
        break;
      case 'content_block_start':
        if (isRecord(event.content_block)) this.startBlock(indexOf(event), event.content_block);
        break;
      case 'content_block_delta':
        if (isRecord(event.delta)) this.onDelta(indexOf(event), event.delta);
        break;
      case 'message_delta':
        if (isRecord(event.delta) && typeof event.delta.stop_reason === 'string') {
          this.stopReason = event.delta.stop_reason;
        }
        if (isRecord(event.usage)) this.addUsage(event.usage);
        break;
      case 'message_stop':
        this.done = true;
        break;
      case 'error':
        throw anthropicError(event.error, 'reported an error mid-stream');
      default:
        // ping, content_block_stop and event types added later carry nothing a step needs.
        break;
    }
  }

  /** A whole message from a server that answered `stream: true` with JSON. */
  onJson(raw: string, response: Response): void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      const type = response.headers.get('content-type') ?? 'none';
      throw new ProviderError(
        `${NAME} answered ${response.status} with a body that is neither an SSE stream nor JSON (content-type ${type}): ${snippet(raw)}`,
      );
    }
    if (isRecord(body) && body.type === 'error') throw anthropicError(body.error, 'reported an error');
    if (!isRecord(body) || !Array.isArray(body.content)) {
      throw new ProviderError(`${NAME} answered with JSON that is not a message: ${snippet(raw)}`);
    }
    this.onMessage(body);
    body.content.forEach((block, index) => {
      if (isRecord(block)) this.startBlock(index, block);
    });
    if (typeof body.stop_reason === 'string') this.stopReason = body.stop_reason;
    this.started = true;
    this.done = true;
  }

  result(): ModelResponse {
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    const toolCalls: ToolCall[] = ordered
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: block.json !== '' ? block.json : JSON.stringify(block.input ?? {}) },
      }));
    return {
      text: ordered
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join(''),
      toolCalls,
      usage: this.toUsage(),
      finishReason: this.stopReason === null ? null : finishReason(this.stopReason),
      model: this.model,
    };
  }

  /** The step's thinking blocks as the API wants them back: in order, unmodified. */
  thinkingBlocks(): ContentBlock[] {
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, block]) => block)
      .flatMap((block): ContentBlock[] => {
        if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.text, signature: block.signature }];
        if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
        return [];
      });
  }

  private onMessage(message: Record<string, unknown>): void {
    if (typeof message.model === 'string' && message.model !== '') this.model = message.model;
    if (isRecord(message.usage)) this.addUsage(message.usage);
  }

  /** Usage arrives in `message_start` and again, cumulative, in `message_delta`: the latest count wins. */
  private addUsage(usage: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(usage)) {
      if (typeof value === 'number' && Number.isFinite(value)) this.usage[key] = value;
    }
  }

  private toUsage(): ModelUsage | null {
    const { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens } = this.usage;
    if (input_tokens === undefined && output_tokens === undefined) return null;
    const cacheRead = cache_read_input_tokens ?? 0;
    const promptTokens = (input_tokens ?? 0) + cacheRead + (cache_creation_input_tokens ?? 0);
    const completionTokens = output_tokens ?? 0;
    return {
      promptTokens,
      completionTokens,
      totalTokens: promptTokens + completionTokens,
      ...(cache_read_input_tokens !== undefined ? { cachedTokens: cacheRead } : {}),
    };
  }

  private startBlock(index: number, start: Record<string, unknown>): void {
    const type = typeof start.type === 'string' ? start.type : 'unknown';
    const block: Block = {
      type,
      text: '',
      id: typeof start.id === 'string' ? start.id : '',
      name: typeof start.name === 'string' ? start.name : '',
      json: '',
      input: start.input,
      signature: typeof start.signature === 'string' ? start.signature : '',
      data: typeof start.data === 'string' ? start.data : '',
    };
    // Tool results must name the call they answer: a server that sent no id gets one made up.
    if (type === 'tool_use' && block.id === '') block.id = `toolu_${crypto.randomUUID().replaceAll('-', '')}`;
    this.blocks.set(index, block);
    if (type === 'text' && typeof start.text === 'string') this.addText(block, start.text);
    if (type === 'thinking' && typeof start.thinking === 'string') block.text = start.thinking;
  }

  private onDelta(index: number, delta: Record<string, unknown>): void {
    const block = this.blocks.get(index);
    if (!block) throw new ProviderError(`${NAME} sent a delta for content block ${index}, which never started`);
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text === 'string') this.addText(block, delta.text);
        break;
      case 'input_json_delta':
        if (typeof delta.partial_json === 'string' && delta.partial_json !== '') {
          block.json += delta.partial_json;
          // ARGS-1: the arguments so far, under the id the finished call carries.
          this.handlers.onToolCallDelta?.({ id: block.id, name: block.name, argumentsText: block.json });
        }
        break;
      case 'thinking_delta':
        if (typeof delta.thinking === 'string') block.text += delta.thinking;
        break;
      case 'signature_delta':
        if (typeof delta.signature === 'string') block.signature += delta.signature;
        break;
      default:
        // citations_delta and later kinds: nothing the step keeps.
        break;
    }
  }

  private addText(block: Block, text: string): void {
    if (text === '') return;
    block.text += text;
    this.emitted = true;
    this.handlers.onTextDelta?.(text);
  }
}

function indexOf(event: Record<string, unknown>): number {
  const index = event.index;
  if (typeof index === 'number' && Number.isInteger(index)) return index;
  throw new ProviderError(`${NAME} sent a ${String(event.type)} event without an index`);
}
