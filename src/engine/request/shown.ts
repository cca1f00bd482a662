/**
 * Which messages of a list a request is built from. A side's turn reads the whole log and sends its
 * main conversation (depth 0), not silent messages; a nested prompt run reads a list that holds its
 * own conversation only, and sends every message of it that is not silent. A silent message that
 * stands for others (a compaction's summary) belongs to the conversation whose messages it replaces.
 */
import type { Message } from '../../spec/index.js';

export type Shown = (message: Message) => boolean;

export const inMainConversation: Shown = (message) => !message.silent && message.depth === 0;

/** For a list of one conversation's messages: all but the silent ones are sent. */
export const notSilent: Shown = (message) => !message.silent;

/** Whether a silent message belongs with the messages `shown` sends (as it would if it were not silent). */
export function belongsWith(shown: Shown, message: Message): boolean {
  return shown(message.silent ? { ...message, silent: false } : message);
}
