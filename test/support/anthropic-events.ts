/**
 * The Messages API's answer to one request, as Anthropic sends it: the server-sent events of a
 * streamed message (`message_start`, `ping`, `content_block_start` / `_delta` / `_stop` for thinking,
 * text and tool use, `message_delta`, `message_stop`, or an `error` event), or one JSON message. No
 * Node built-in, so workerd tests can stream it through an injected fetch.
 */

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** `input` is sent as is, in `input_json_delta` fragments; '' sends none. */
  | { type: 'tool_use'; name: string; input: string; id?: string };

export interface MessageReply {
  /** In order; `text` and `toolCalls` are shorthands appended after them. */
  blocks?: ReplyBlock[];
  text?: string;
  toolCalls?: { name: string; input: string; id?: string }[];
  /** Default `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: string;
  /** `message_start` usage; default 10 input tokens. */
  usage?: Record<string, number>;
  /** `message_delta` usage; default an output count. */
  outputUsage?: Record<string, number>;
  model?: string;
  /** Characters per delta; default 4. */
  chunkSize?: number;
  /** An `error` event, sent right after `message_start` (`start`) or after the content (`end`, the default). */
  error?: { type: string; message: string };
  errorAt?: 'start' | 'end';
  /** End the stream without `message_stop`. */
  omitStop?: boolean;
  /** Answer `stream: true` with one JSON message instead. */
  asJson?: boolean;
}

function blocksOf(reply: MessageReply): ReplyBlock[] {
  return [
    ...(reply.blocks ?? []),
    ...(reply.text !== undefined ? [{ type: 'text' as const, text: reply.text }] : []),
    ...(reply.toolCalls ?? []).map((call) => ({ type: 'tool_use' as const, ...call })),
  ];
}

function stopReasonOf(reply: MessageReply): string {
  return reply.stopReason ?? (blocksOf(reply).some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

let ids = 0;
function toolId(block: { id?: string }): string {
  block.id ??= `toolu_${String(++ids).padStart(6, '0')}`;
  return block.id;
}

function split(text: string, size: number): string[] {
  const points = [...text];
  const pieces: string[] = [];
  for (let index = 0; index < points.length; index += size) pieces.push(points.slice(index, index + size).join(''));
  return pieces;
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

export function frames(reply: MessageReply, model: string): string[] {
  const size = reply.chunkSize ?? 4;
  const out = [
    event('message_start', {
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1, ...reply.usage },
      },
    }),
  ];
  if (reply.error && reply.errorAt === 'start') return [...out, event('error', { error: reply.error })];
  out.push(event('ping', {}));
  blocksOf(reply).forEach((block, index) => {
    switch (block.type) {
      case 'text':
        out.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
        for (const piece of split(block.text, size)) {
          out.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
        }
        break;
      case 'thinking':
        out.push(
          event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        );
        for (const piece of split(block.thinking, size)) {
          out.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
        }
        out.push(
          event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }),
        );
        break;
      case 'redacted_thinking':
        out.push(
          event('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.data } }),
        );
        break;
      case 'tool_use':
        out.push(
          event('content_block_start', {
            index,
            content_block: { type: 'tool_use', id: toolId(block), name: block.name, input: {} },
          }),
        );
        for (const piece of split(block.input, size)) {
          out.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
        }
        break;
    }
    out.push(event('content_block_stop', { index }));
  });
  if (reply.error) return [...out, event('error', { error: reply.error })];
  const output = blocksOf(reply).reduce((sum, block) => sum + JSON.stringify(block).length, 0);
  out.push(
    event('message_delta', {
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
      usage: reply.outputUsage ?? { output_tokens: Math.ceil(output / 4) },
    }),
  );
  if (!reply.omitStop) out.push(event('message_stop', {}));
  return out;
}

export function message(reply: MessageReply, model: string): unknown {
  return {
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model,
    content: blocksOf(reply).map((block) =>
      block.type === 'tool_use'
        ? { type: 'tool_use', id: toolId(block), name: block.name, input: JSON.parse(block.input || '{}') }
        : block,
    ),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, ...reply.usage, ...reply.outputUsage },
  };
}
