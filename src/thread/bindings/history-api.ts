/**
 * What a fork carries between the Worker and the thread objects (FORK-2, FORK-3): where it came from,
 * what its source is asked, what it starts with, and what it leaves behind. The answers, which hold
 * the fork's details, are thread-api.ts's.
 */
import type { Message } from '../../spec/index.js';

/** Where a fork came from (FORK-2): the source thread and the message it was forked at. */
export interface ForkedFrom {
  thread_id: string;
  /** The last message copied; null for a fork made before the source's first message. */
  message_id: string | null;
}

/** What a fork starts with beside its files: the source's log up to the point, and its key-value rows. */
export interface ForkSeed {
  from: ForkedFrom;
  /** The messages as the source stored them (scrubbed), same ids and seqs. */
  log: Message[];
  /** Key-value rows (key, JSON text) as the source stored them: rules, tool contexts, budget, ... */
  values: [string, string][];
}

/** What the source of a fork is asked (FORK-2, FORK-3): the point, and what the fork changes. */
export interface ForkRequest {
  /** The fork's id, chosen by the Worker, which admitted it. */
  forkId: string;
  /** Fork at this message (included)... */
  at?: string;
  /** ...or just before this user message (an edit). */
  before?: string;
  agent?: string;
  variables?: Record<string, string>;
}

/** What a fork leaves behind: waits it does not inherit, children it does not take. */
export interface NotCopied {
  waits: string[];
  children: string[];
}
