/**
 * The Messages API's answer to one request, as Anthropic sends it: the server-sent events of a
 * streamed message (`message_start`, `ping`, `content_block_start` / `_delta` / `_stop` for thinking,
 * text and tool use, `message_delta`, `message_stop`, or an `error` event), or one JSON message. No
 * Node built-in, so workerd tests can stream it through an injected fetch, and plain ESM JavaScript so
 * the benchmark (`node bench/run.mjs`) can render the same bytes; types are in anthropic-events.d.mts.
 */

/** @typedef {import('./anthropic-events.d.mts').MessageReply} MessageReply */
/** @typedef {import('./anthropic-events.d.mts').ReplyBlock} ReplyBlock */

/** @param {MessageReply} reply @returns {ReplyBlock[]} */
function blocksOf(reply) {
  return [
    ...(reply.blocks ?? []),
    ...(reply.text !== undefined ? [{ type: 'text', text: reply.text }] : []),
    ...(reply.toolCalls ?? []).map((call) => ({ type: 'tool_use', ...call })),
  ];
}

/** @param {MessageReply} reply */
function stopReasonOf(reply) {
  return reply.stopReason ?? (blocksOf(reply).some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

let ids = 0;
/** @param {{ id?: string }} block */
function toolId(block) {
  block.id ??= `toolu_${String(++ids).padStart(6, '0')}`;
  return block.id;
}

/** @param {string} text @param {number} size */
function split(text, size) {
  const points = [...text];
  /** @type {string[]} */
  const pieces = [];
  for (let index = 0; index < points.length; index += size) pieces.push(points.slice(index, index + size).join(''));
  return pieces;
}

/** @param {string} type @param {Record<string, unknown>} data */
function event(type, data) {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * The server-sent events of a streamed message, byte for byte.
 * @param {MessageReply} reply @param {string} model @returns {string[]}
 */
export function frames(reply, model) {
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

/**
 * The same answer as one JSON message (a request without `stream`).
 * @param {MessageReply} reply @param {string} model
 */
export function message(reply, model) {
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
