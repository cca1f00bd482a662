/**
 * React bindings, an entry of their own so that only React users load React: `useThread` loads a
 * thread and its log, follows its stream (reconnecting by itself), and returns what a chat or an
 * inspector shows — frames, messages, status, the calls waiting for an answer, text still
 * streaming — with `send` and `stop`. The state is `threadReducer` (client/thread-state.ts) fed by
 * `followThread` (client/follow-thread.ts), both usable and tested without React.
 */
import { useCallback, useEffect, useReducer } from 'react';
import type { Client } from './create-client.js';
import { describeError, type FollowOptions, followThread } from './follow-thread.js';
import type { PostMessageAnswer } from './resources.js';
import { initialThreadView, type ThreadView, threadReducer } from './thread-state.js';

export { describeError, type FollowOptions, followThread, wholeLog } from './follow-thread.js';
export {
  initialThreadView,
  type LoadedThread,
  mergeMessages,
  type ThreadAction,
  type ThreadView,
  type ThreadViewError,
  threadReducer,
} from './thread-state.js';

export type UseThreadOptions = FollowOptions;

export interface UseThreadResult extends ThreadView {
  /** Posts a user message; rejects (and sets `error`) on failure. */
  send(content: string): Promise<PostMessageAnswer>;
  /** Aborts the running step; rejects (and sets `error`) on failure. */
  stop(): Promise<void>;
}

/**
 * Follows thread `threadId` (nothing while it is null). Create `client` once (at module scope or
 * with useMemo): a new client, like a new thread id or new options, reloads and reconnects.
 */
export function useThread(
  client: Client,
  threadId: string | null | undefined,
  options: UseThreadOptions = {},
): UseThreadResult {
  const [view, dispatch] = useReducer(threadReducer, initialThreadView);
  const { replay, transport, heartbeatMs, maxBackoffMs, initialBackoffMs } = options;

  useEffect(() => {
    dispatch({ type: 'reset' });
    if (!threadId) return;
    const settings: FollowOptions = { replay, transport, heartbeatMs, maxBackoffMs, initialBackoffMs };
    return followThread(client, threadId, settings, dispatch);
  }, [client, threadId, replay, transport, heartbeatMs, maxBackoffMs, initialBackoffMs]);

  const send = useCallback(
    async (content: string) => {
      if (!threadId) throw new TypeError('useThread has no thread to send to');
      try {
        return await client.messages.post(threadId, { content });
      } catch (error) {
        dispatch({ type: 'failed', error: describeError(error) });
        throw error;
      }
    },
    [client, threadId],
  );

  const stop = useCallback(async () => {
    if (!threadId) throw new TypeError('useThread has no thread to stop');
    try {
      await client.threads.stop(threadId);
    } catch (error) {
      dispatch({ type: 'failed', error: describeError(error) });
      throw error;
    }
  }, [client, threadId]);

  return { ...view, send, stop };
}
