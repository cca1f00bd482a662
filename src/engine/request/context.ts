/**
 * Builds the model's view of a thread: the prompt's system text, then the log as Chat Completions
 * messages. Each stored message is converted once and remembered, so a step costs only the new
 * messages plus assembling the list the request body needs anyway. Once the conversation has been
 * compacted (compaction.ts), the newest summary stands in for the messages it covers. Past turns
 * are sent without their tool calls unless the prompt asks for them, so where the current turn
 * starts, among the messages a request shows, is read here too (turnStartIndex).
 */
import type { AttachmentRef, Message, ModelContentPart, ModelMessage, PromptDefinition } from '../../spec/index.js';
import { notedContent } from './attachment-parts.js';
import { latestCompaction } from './compaction.js';
import { inMainConversation, type Shown } from './shown.js';

const converted = new WeakMap<Message, ModelMessage>();

function toModelMessage(message: Message): ModelMessage {
  let result = converted.get(message);
  if (result) return result;
  switch (message.role) {
    case 'system':
      result = { role: 'system', content: message.content ?? '' };
      break;
    case 'user':
      // MSG-10: without its loaded parts (message-files.ts), a message's files are named in notes.
      result = message.attachments?.length
        ? { role: 'user', content: notedContent(message.content ?? '', message.attachments as AttachmentRef[]) }
        : { role: 'user', content: message.content ?? '' };
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

function withoutToolCalls(message: Message): ModelMessage | null {
  if (message.role === 'tool') return null;
  if (message.role === 'assistant' && message.tool_calls?.length) {
    return message.content ? { role: 'assistant', content: message.content } : null;
  }
  return toModelMessage(message);
}

/** How far the turn-start scan of a log has gone, so the next step scans only what was appended. */
interface TurnScan {
  length: number;
  last: Message | undefined;
  outstanding: Set<string>;
  start: number;
}

const turnScans = new WeakMap<readonly Message[], TurnScan>();

/**
 * Index of the user message that starts the current turn: the last one not sent while tool calls
 * were waiting for results (a message injected mid-step is part of the step, not a new turn).
 * The main conversation's scan is remembered per log: logs only grow, so a step reads only the
 * messages appended since the last.
 */
export function turnStartIndex(log: readonly Message[], shown: Shown = inMainConversation): number {
  const remembered = shown === inMainConversation ? turnScans.get(log) : undefined;
  const resumes =
    remembered !== undefined && remembered.length <= log.length && log[remembered.length - 1] === remembered.last;
  const outstanding = resumes ? remembered.outstanding : new Set<string>();
  let start = resumes ? remembered.start : -1;
  for (let index = resumes ? remembered.length : 0; index < log.length; index++) {
    const message = log[index] as Message;
    if (!shown(message)) continue;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) outstanding.add(call.id);
    else if (message.role === 'tool') outstanding.delete(message.tool_call_id ?? '');
    else if (message.role === 'user' && outstanding.size === 0) start = index;
  }
  if (shown === inMainConversation) {
    turnScans.set(log, { length: log.length, last: log[log.length - 1], outstanding, start });
  }
  return start;
}

/** Parts by message id: a step's tool images (EXE-9), user messages' files (MSG-10). */
type PartsById = ReadonlyMap<string, ModelContentPart[]>;

const NO_PARTS: PartsById = new Map();

/** The loop's state over the log: what is sent, what waits for its tool results. */
interface RenderState {
  out: ModelMessage[];
  /** Calls sent in past turns (shared, never changed) and in this pass. */
  sentBefore: ReadonlySet<string>;
  sentCalls: Set<string>;
  outstanding: Set<string>;
  held: ModelMessage[];
  images: ModelContentPart[];
  /** The content of user messages whose files were loaded. */
  userParts: PartsById;
}

function render(
  state: RenderState,
  log: readonly Message[],
  from: number,
  to: number,
  turnStart: number,
  includePastTools: boolean,
  imageParts: PartsById,
  shown: Shown,
): void {
  const { out, sentCalls, outstanding, held, images } = state;
  for (let index = from; index < to; index++) {
    const message = log[index] as Message;
    if (!shown(message)) continue;
    const pastTurn = index < turnStart;
    const loaded = message.role === 'user' ? state.userParts.get(message.id) : undefined;
    const model: ModelMessage | null = loaded
      ? { role: 'user', content: loaded }
      : pastTurn && !includePastTools
        ? withoutToolCalls(message)
        : toModelMessage(message);
    if (!model) continue;
    if (model.role === 'tool') {
      // A tool result is sent only after its call: the Chat Completions protocol rejects orphans.
      if (!sentCalls.has(model.tool_call_id) && !state.sentBefore.has(model.tool_call_id)) continue;
      outstanding.delete(model.tool_call_id);
      out.push(model);
      images.push(...(imageParts.get(message.id) ?? []));
      if (outstanding.size === 0 && images.length > 0) out.push({ role: 'user', content: images.splice(0) });
    } else if (outstanding.size > 0) {
      // Messages that land between a tool call and its result are held back until the results are in.
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
}

/**
 * The past turns of a log as the model is sent them, remembered while the turn lasts: its steps
 * then convert only the current turn's messages (a long thread's step does not re-read its history).
 */
interface PastTurns {
  first: number;
  turnStart: number;
  last: Message | undefined;
  includePastTools: boolean;
  shown: Shown;
  userParts: PartsById;
  out: readonly ModelMessage[];
  sentCalls: ReadonlySet<string>;
}

const pastTurnsByLog = new WeakMap<readonly Message[], PastTurns>();

function pastTurns(
  log: readonly Message[],
  first: number,
  turnStart: number,
  includePastTools: boolean,
  shown: Shown,
  userParts: PartsById,
): PastTurns | null {
  const known = pastTurnsByLog.get(log);
  if (
    known &&
    known.first === first &&
    known.turnStart === turnStart &&
    known.includePastTools === includePastTools &&
    known.shown === shown &&
    known.userParts === userParts &&
    log[turnStart - 1] === known.last
  ) {
    return known;
  }
  const state: RenderState = {
    out: [],
    sentBefore: new Set(),
    sentCalls: new Set(),
    outstanding: new Set(),
    held: [],
    images: [],
    userParts,
  };
  render(state, log, first, turnStart, turnStart, includePastTools, NO_PARTS, shown);
  // Only a closed prefix (no call waiting for its result) can be reused as it stands.
  if (state.outstanding.size > 0 || state.held.length > 0) return null;
  const rendered: PastTurns = {
    first,
    turnStart,
    last: log[turnStart - 1],
    includePastTools,
    shown,
    userParts,
    out: state.out,
    sentCalls: state.sentCalls,
  };
  pastTurnsByLog.set(log, rendered);
  return rendered;
}

/** Where the messages a request sends start in `log`: the current turn, or all since the newest compaction. */
function firstSent(prompt: PromptDefinition, log: readonly Message[], turnStart: number, shown: Shown) {
  let first = prompt.includeChat ? 0 : Math.max(turnStart, 0);
  const compaction = prompt.includeChat ? latestCompaction(log, shown) : null;
  if (compaction) {
    while (first < log.length && (log[first] as Message).seq <= compaction.mark.through_seq) first++;
  }
  return { first, compaction };
}

/** The index of the first message of `log` a request for `prompt` may send (whose files it loads, MSG-10). */
export function sentFrom(prompt: PromptDefinition, log: readonly Message[], shown: Shown = inMainConversation): number {
  return firstSent(prompt, log, turnStartIndex(log, shown), shown).first;
}

/**
 * The request's messages. `imageParts` (tool message id → parts) adds a step's images as a user
 * message right after its tool results (EXE-9); `userParts` (user message id → content) is what
 * user messages carrying files are sent as (MSG-10).
 */
export function buildModelMessages(
  prompt: PromptDefinition,
  log: readonly Message[],
  imageParts: PartsById = NO_PARTS,
  system: string = prompt.prompt,
  shown: Shown = inMainConversation,
  userParts: PartsById = NO_PARTS,
): ModelMessage[] {
  const out: ModelMessage[] = [];
  if (system.trim() !== '') out.push({ role: 'system', content: system });
  const turnStart = turnStartIndex(log, shown);
  const { first, compaction } = firstSent(prompt, log, turnStart, shown);
  if (compaction) {
    out.push({ role: 'system', content: `Summary of the conversation before:\n${compaction.summary}` });
  }
  const includePastTools = prompt.includePastTools === true;
  const past = first < turnStart ? pastTurns(log, first, turnStart, includePastTools, shown, userParts) : null;
  const state: RenderState = {
    out,
    sentBefore: past ? past.sentCalls : new Set(),
    sentCalls: new Set(),
    outstanding: new Set(),
    held: [],
    images: [],
    userParts,
  };
  if (past) for (const message of past.out) out.push(message);
  render(state, log, past ? turnStart : first, log.length, turnStart, includePastTools, imageParts, shown);
  out.push(...state.held);
  return out;
}
