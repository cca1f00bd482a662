/**
 * The conversation in the Messages API's shape (THR-4). The runtime speaks Chat Completions messages;
 * Anthropic wants the system text apart, user and assistant turns that alternate, tool calls as
 * `tool_use` blocks in the assistant's turn and their results as `tool_result` blocks at the start of
 * the next user turn, images as `image` blocks and PDFs as `document` blocks.
 */
import type { ModelContentPart, ModelMessage, ToolCall } from '../../spec/index.js';

export type ContentBlock = Record<string, unknown> & { type: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface Conversation {
  /** Every system message, in order, one paragraph each; undefined when there is none. */
  system: string | undefined;
  messages: AnthropicMessage[];
}

/** The thinking blocks that came with a step that called tools, by the id of its first call. */
export type ThinkingLookup = (toolCallId: string) => readonly ContentBlock[] | undefined;

/**
 * How the runtime writes a failed tool's result (result-shaping.ts, cancel-pending.ts): the model
 * message says nothing else about it, so the prefix is what marks `is_error`.
 */
const ERROR_PREFIX = 'Error: ';

/** When a conversation opens with the assistant: Anthropic wants a user turn first. */
const OPENING_USER_TURN = '(The conversation so far follows.)';

export function toConversation(messages: readonly ModelMessage[], thinking?: ThinkingLookup): Conversation {
  const system: string[] = [];
  const turns: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    // Consecutive messages of one role become one turn: the API wants them to alternate.
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content.trim() !== '') system.push(message.content);
        break;
      case 'user':
        push('user', contentBlocks(message.content));
        break;
      case 'assistant':
        push('assistant', assistantBlocks(message.content, message.tool_calls, thinking));
        break;
      case 'tool':
        push('user', [toolResultBlock(message.tool_call_id, message.content)]);
        break;
    }
  }
  for (const turn of turns) if (turn.role === 'user') resultsFirst(turn);
  if (turns[0]?.role === 'assistant') turns.unshift({ role: 'user', content: [textBlock(OPENING_USER_TURN)] });
  trimFinalAssistantText(turns);
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: turns };
}

function textBlock(text: string): ContentBlock {
  return { type: 'text', text };
}

/** Text and images; empty text is left out, as the API rejects empty text blocks. */
function contentBlocks(content: string | readonly ModelContentPart[] | null): ContentBlock[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [textBlock(content)];
  const blocks: ContentBlock[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push(textBlock(part.text));
    } else if (part.type === 'image_url') {
      blocks.push(imageBlock(part.image_url.url));
    } else {
      blocks.push(documentBlock(part.file.filename, part.file.file_data));
    }
  }
  return blocks;
}

/** A PDF sent with a user's message (MSG-11): a `document` block with its bytes as a base64 source. */
function documentBlock(filename: string, fileData: string): ContentBlock {
  const data = /^data:application\/pdf(?:;[^,]*)?;base64,(.*)$/s.exec(fileData);
  if (data) return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: data[1] } };
  return textBlock(`[file attached: ${filename} — read it with a tool]`);
}

/** A `data:` URL becomes a base64 source; any other URL a `url` source the API fetches itself. */
export function imageBlock(url: string): ContentBlock {
  const data = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (data) {
    return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  }
  return { type: 'image', source: { type: 'url', url } };
}

function assistantBlocks(
  content: string | null,
  toolCalls: readonly ToolCall[] | undefined,
  thinking: ThinkingLookup | undefined,
): ContentBlock[] {
  const calls = toolCalls ?? [];
  const first = calls[0];
  // A step's thinking goes back before its text and calls, unmodified, as the API requires.
  const blocks: ContentBlock[] = first && thinking ? [...(thinking(first.id) ?? [])] : [];
  blocks.push(...contentBlocks(content));
  for (const call of calls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call.function.arguments) });
  }
  return blocks;
}

/**
 * A call's arguments as the object `tool_use.input` must be. Arguments that are not a JSON object
 * (malformed JSON a model once sent, or nothing at all) go back as `{}`: the call's result already
 * told the model what was wrong with them, and one bad call must not make every later request fail.
 */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported to the model by the executor when the call ran.
  }
  return {};
}

function toolResultBlock(toolCallId: string, content: string | readonly ModelContentPart[]): ContentBlock {
  const blocks = contentBlocks(content);
  const first = blocks[0];
  const isError = first?.type === 'text' && String(first.text).startsWith(ERROR_PREFIX);
  const block: ContentBlock = { type: 'tool_result', tool_use_id: toolCallId };
  // A result without content is still an answer to its call: the block goes without `content`.
  if (blocks.length === 1 && first?.type === 'text') block.content = first.text;
  else if (blocks.length > 0) block.content = blocks;
  if (isError) block.is_error = true;
  return block;
}

/** The API wants a user turn's `tool_result` blocks before anything else in it. */
function resultsFirst(turn: AnthropicMessage): void {
  const results = turn.content.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === turn.content.length) return;
  turn.content = [...results, ...turn.content.filter((block) => block.type !== 'tool_result')];
}

/** A conversation ending with the assistant's text continues it, and that text may not end in whitespace. */
function trimFinalAssistantText(turns: AnthropicMessage[]): void {
  const last = turns[turns.length - 1];
  if (last?.role !== 'assistant') return;
  const block = last.content[last.content.length - 1];
  if (block?.type !== 'text') return;
  const trimmed = String(block.text).trimEnd();
  if (trimmed === '') last.content.pop();
  else block.text = trimmed;
  if (last.content.length === 0) turns.pop();
}
