/**
 * The refusals the history routes share, documented once: a point that is not one, a message of no
 * such thread, a history that no longer reaches back.
 */
import { failure } from '../contract/index.js';

export const POINT_NOT_FOUND = failure(
  "`thread_not_found`, or `message_not_found`: the thread has no such message (another thread's message ids are not found either)",
);

/** The 409s a point may meet, with what each adds. */
export const POINT_CONFLICTS =
  '`point_mid_round`: the message is inside a tool round (`details.before` and `details.after` name the nearest points, or null); `history_expired`: the file history no longer reaches the point (`details.oldest` names the oldest point it reaches)';
