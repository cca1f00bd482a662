/**
 * Builds the model's view of a thread: the prompt's system text, then the log as Chat Completions
 * messages. Each stored message is converted once and remembered, so a step costs only the new
 * messages plus assembling the list the request body needs anyway. Once the conversation has been
 * compacted (compaction.ts), the newest summary stands in for the messages it covers.
 */
import type { Message, ModelContentPart, ModelMessage, PromptDefinition } from '../../spec/index.js';
import { latestCompaction } from './compaction.js';

const converted = new WeakMap<Message, ModelMessage>();

function toModelMessage(message: Message): ModelMessage {
  let result = converted.get(message);
  if (result) return result;
  switch (message.role) {
    case 'system':
      result = { role: 'system', content: message.content ?? '' };
      break;
    case 'user':
      result = { role: 'user', content: message.content ?? '' };
      break;
    case 'assistant':
      result =
        message.tool_calls && message.tool_calls.length > 0
          ? { role: 'assistant', content: message.content, tool_calls: message.tool_calls }
          : { role: 'assistant', content: message.content ?? '' };
      break;
    case 'tool':
      result = { role: 'tool', content: message.content ?? '', tool_call_id: message.tool_call_id ?? '' };
      break;
  }
  converted.set(message, result);
  return result;
}

/** Index of the last user message of the main conversation, or -1. */
export function lastUserIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && message.depth === 0) return index;
  }
  return -1;
}

/** Which messages a request is built from: by default the main conversation, not silent ones. */
export type Shown = (message: Message) => boolean;

export const inMainConversation: Shown = (message) => !message.silent && message.depth === 0;

function withoutToolCalls(message: Message): ModelMessage | null {
  if (message.role === 'tool') return null;
  if (message.role === 'assistant' && message.tool_calls?.length) {
    return message.content ? { role: 'assistant', content: message.content } : null;
  }
  return toModelMessage(message);
}

/**
 * Index of the user message that starts the current turn: the last one not sent while tool calls
 * were waiting for results (a message injected mid-step is part of the step, not a new turn).
 */
export function turnStartIndex(log: readonly Message[], shown: Shown = inMainConversation): number {
  const outstanding = new Set<string>();
  let start = -1;
  for (let index = 0; index < log.length; index++) {
    const message = log[index] as Message;
    if (!shown(message)) continue;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) outstanding.add(call.id);
    else if (message.role === 'tool') outstanding.delete(message.tool_call_id ?? '');
    else if (message.role === 'user' && outstanding.size === 0) start = index;
  }
  return start;
}

/**
 * The request's messages. `imageParts` (tool message id → parts) adds a step's images as a user
 * message right after its tool results (EXE-9).
 */
export function buildModelMessages(
  prompt: PromptDefinition,
  log: readonly Message[],
  imageParts: ReadonlyMap<string, ModelContentPart[]> = new Map(),
  system: string = prompt.prompt,
  shown: Shown = inMainConversation,
): ModelMessage[] {
  const out: ModelMessage[] = [];
  if (system.trim() !== '') out.push({ role: 'system', content: system });
  const turnStart = turnStartIndex(log, shown);
  let first = prompt.includeChat ? 0 : Math.max(turnStart, 0);
  const compaction = prompt.includeChat ? latestCompaction(log) : null;
  if (compaction) {
    out.push({ role: 'system', content: `Summary of the conversation before:\n${compaction.summary}` });
    while (first < log.length && (log[first] as Message).seq <= compaction.mark.through_seq) first++;
  }
  // A tool result is sent only after its call: the Chat Completions protocol rejects orphans.
  const sentCalls = new Set<string>();
  // Messages that land between a tool call and its result are held back until the results are in.
  const outstanding = new Set<string>();
  const held: ModelMessage[] = [];
  const images: ModelContentPart[] = [];
  for (let index = first; index < log.length; index++) {
    const message = log[index] as Message;
    if (!shown(message)) continue;
    const pastTurn = index < turnStart;
    const model = pastTurn && !prompt.includePastTools ? withoutToolCalls(message) : toModelMessage(message);
    if (!model) continue;
    if (model.role === 'tool') {
      if (!sentCalls.has(model.tool_call_id)) continue;
      outstanding.delete(model.tool_call_id);
      out.push(model);
      images.push(...(imageParts.get(message.id) ?? []));
      if (outstanding.size === 0 && images.length > 0) out.push({ role: 'user', content: images.splice(0) });
    } else if (outstanding.size > 0) {
      held.push(model);
      continue;
    } else {
      out.push(model);
    }
    if (model.role === 'assistant' && model.tool_calls) {
      for (const call of model.tool_calls) {
        outstanding.add(call.id);
        sentCalls.add(call.id);
      }
    }
    if (outstanding.size === 0 && held.length > 0) out.push(...held.splice(0));
  }
  out.push(...held);
  return out;
}
