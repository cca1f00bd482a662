/**
 * Turn-taking between an agent's two sides (DEF-6, EXE-7). In a `dual_ai` thread both sides are
 * models: every message a side writes is stored with `metadata.side`, and each side is shown the
 * log as its own conversation, its messages as the assistant's and the other side's answers as the
 * user's (the other side's tool calls and results stay private).
 *
 * When a side's turn ends the loop stores a silent turn marker naming who goes next, so whose turn
 * it is is always read from the log, even after a restart (THR-3). A session (everything since the
 * last message from outside the thread) ends when a side calls its stop tool or after
 * `maxSessionTurns` side turns.
 */
import type { Message } from '../../spec/index.js';
import type { NewMessage, ThreadStore } from '../ports/index.js';
import { StoreView } from '../ports/index.js';

export type Side = 'a' | 'b';

/** Side turns in one session when the agent sets no `maxSessionTurns`: a runaway guard (EXE-7). */
export const SESSION_TURNS_CEILING = 50;

export type TurnEndReason = 'response' | 'stop_tool' | 'session_turns' | 'execution_stopped';

export interface TurnEnd {
  side: Side;
  reason: TurnEndReason;
  /** The side that goes next; null when the session is over. */
  next: Side | null;
  /** A stop tool's answer (`stopToolResponseProperty`), handed to whoever waits for the session. */
  answer?: string;
}

export function turnEndOf(message: Message): TurnEnd | null {
  if (message.role !== 'system' || !message.silent) return null;
  return (message.metadata?.turn_end as TurnEnd | undefined) ?? null;
}

/** The side that wrote an assistant or tool message; messages without a side are side A's. */
export function sideOf(message: Message): Side {
  return message.metadata?.side === 'b' ? 'b' : 'a';
}

export function otherSide(side: Side): Side {
  return side === 'a' ? 'b' : 'a';
}

/** Records the end of a side's turn. */
export function recordTurnEnd(store: ThreadStore, end: TurnEnd): Message {
  const label = end.next ? `side ${end.side} ended its turn (${end.reason}); side ${end.next} is next` : 'session over';
  return store.append({ role: 'system', content: label, silent: true, metadata: { turn_end: end } });
}

/**
 * The side whose turn it is, read from the log: the side named by the newest turn marker, the side
 * in the middle of its turn, or the side a message from outside is addressed to (`to_side`, SUB-4
 * `receives_messages`; side A by default). Null when nothing waits for an answer.
 */
export function nextSide(log: readonly Message[]): Side | null {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.depth !== 0) continue;
    const end = turnEndOf(message);
    if (end) return end.next;
    if (message.silent || message.role === 'system') continue;
    if (message.role === 'user') return message.metadata?.to_side === 'b' ? 'b' : 'a';
    return sideOf(message);
  }
  return null;
}

/** Side turns already ended in the current session: markers since the last message from outside. */
export function sessionTurns(log: readonly Message[]): number {
  let turns = 0;
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.depth !== 0) continue;
    if (message.role === 'user') break;
    if (turnEndOf(message)) turns++;
  }
  return turns;
}

/** A side's answer that no marker follows yet: the thread stopped between writing the two. */
export function unmarkedAnswer(log: readonly Message[]): Message | null {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.depth !== 0 || (message.silent && !turnEndOf(message))) continue;
    const answered = message.role === 'assistant' && message.metadata?.side && !message.tool_calls?.length;
    return answered ? message : null;
  }
  return null;
}

const views = { a: new WeakMap<Message, Message | null>(), b: new WeakMap<Message, Message | null>() };

/** How `side` sees one message: the other side's answers are user messages, its tool traffic hidden. */
function seenBy(side: Side, message: Message): Message | null {
  // Turn markers belong to the session, not to either side's conversation.
  if (turnEndOf(message)) return null;
  if (message.depth !== 0 || (message.role !== 'assistant' && message.role !== 'tool')) return message;
  if (sideOf(message) === side) return message;
  const cache = views[side];
  let seen = cache.get(message);
  if (seen === undefined) {
    seen = message.role === 'assistant' && message.content ? { ...message, role: 'user', tool_calls: null } : null;
    cache.set(message, seen);
  }
  return seen;
}

/**
 * A `dual_ai` thread's store as one side sees it: `messages()` is that side's view of the log and
 * everything it appends is marked as its own.
 */
export class SideStore extends StoreView {
  constructor(
    store: ThreadStore,
    readonly side: Side,
  ) {
    super(store);
  }

  protected select(log: readonly Message[]): Message[] {
    const view: Message[] = [];
    for (const message of log) {
      const seen = seenBy(this.side, message);
      if (seen) view.push(seen);
    }
    return view;
  }

  override append(message: NewMessage): Message {
    if (message.role !== 'assistant' && message.role !== 'tool') return this.store.append(message);
    return this.store.append({ ...message, metadata: { ...message.metadata, side: this.side } });
  }
}
