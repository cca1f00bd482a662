/**
 * "Fork from here" on a message of the log: a new thread holding the log up to that message and the
 * files as they were then, opened at once. A message inside a tool round (a call whose results are
 * not all in yet) is not a point a thread can start from: the server names the nearest points
 * before and after it, and the alert offers to fork at either, or to show it in the log.
 */
import { ApiError } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { type Child, h } from './dom.js';
import { leaveNote } from './fork-notes.js';
import { shortId } from './format.js';

export interface ForkHooks {
  /** Shows an alert made of text, links and buttons; returns it, to take it away once acted on. */
  alert(...content: Child[]): HTMLElement;
  openThread(id: string): void;
  /** Scrolls the log to a message and marks it. */
  showMessage(messageId: string): void;
}

/** The nearest valid points a `point_mid_round` refusal names. */
interface NearestPoints {
  before: string | null;
  after: string | null;
}

function nearestPoints(error: unknown): NearestPoints | null {
  if (!(error instanceof ApiError) || error.code !== 'point_mid_round') return null;
  const details = (error.details ?? {}) as Partial<NearestPoints>;
  const id = (value: unknown) => (typeof value === 'string' ? value : null);
  return { before: id(details.before), after: id(details.after) };
}

export async function forkFrom(api: Api, threadId: string, messageId: string, hooks: ForkHooks): Promise<void> {
  try {
    const answer = await api.client.threads.fork(threadId, { at: messageId });
    leaveNote(answer);
    hooks.openThread(answer.thread.id);
  } catch (error) {
    const points = nearestPoints(error);
    if (points) showNearest(api, threadId, messageId, points, hooks);
    else hooks.alert(`Could not fork at message ${shortId(messageId)}: ${describeError(error)}`);
  }
}

function showNearest(api: Api, threadId: string, messageId: string, points: NearestPoints, hooks: ForkHooks): void {
  const offer = (label: string, at: string | null): Child => {
    if (!at) return null;
    const fork = h('button', { type: 'button', class: 'small' }, `Fork ${label} (${shortId(at)})`);
    const show = h('button', { type: 'button', class: 'small link', onclick: () => hooks.showMessage(at) }, 'Show it');
    fork.addEventListener('click', () => {
      alert.remove();
      void forkFrom(api, threadId, at, hooks);
    });
    return h('span', { class: 'fork-offer', 'data-at': at }, ' ', fork, ' ', show);
  };
  const alert = hooks.alert(
    `Message ${shortId(messageId)} is inside a tool round, so a thread cannot start there. `,
    points.before || points.after ? 'The nearest points:' : 'No point near it can be forked.',
    offer('before the round', points.before),
    offer('after the round', points.after),
  );
  alert.classList.add('fork-refused');
}
