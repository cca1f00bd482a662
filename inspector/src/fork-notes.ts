/**
 * What a fork or an edit left behind (`not_copied`): waits open at the point, which the new thread
 * does not wait for, and child threads, which stay with the source. Told once, on the new thread's
 * screen, which the page opens right after making it.
 */
import type { ForkAnswer } from '../../client/index.js';
import { shortId } from './format.js';

const notes = new Map<string, string>();

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Keeps the note for the thread a fork or an edit just made; nothing when everything came along. */
export function leaveNote(answer: Pick<ForkAnswer, 'thread' | 'not_copied'>): void {
  const { waits, children } = answer.not_copied;
  const parts: string[] = [];
  if (waits.length > 0)
    parts.push(
      `${counted(waits.length, 'open wait', 'open waits')} (${waits.map(shortId).join(', ')}) at that point: this thread does not wait for ${waits.length === 1 ? 'it' : 'them'}.`,
    );
  if (children.length > 0)
    parts.push(
      `${counted(children.length, 'child thread', 'child threads')} (${children.map(shortId).join(', ')}) ${children.length === 1 ? 'stays' : 'stay'} with the source thread.`,
    );
  if (parts.length > 0) notes.set(answer.thread.id, `Not copied into this thread: ${parts.join(' ')}`);
}

/** The note left for `threadId`, once. */
export function takeNote(threadId: string): string | null {
  const note = notes.get(threadId) ?? null;
  notes.delete(threadId);
  return note;
}
