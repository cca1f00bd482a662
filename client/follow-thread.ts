/**
 * Following a thread, without React: read the thread and its whole log, then open its stream after
 * the frame the read saw (or from the first, to replay), and report everything as ThreadActions.
 * `useThread` runs it in an effect; a test or another framework can run it with any dispatch.
 */
import { ApiError } from './api-error.js';
import type { Client } from './create-client.js';
import type { StreamOptions } from './stream.js';
import type { ThreadAction, ThreadViewError } from './thread-state.js';
import type { ThreadStream } from './thread-stream.js';
import type { Message } from './wire.js';

export interface FollowOptions extends Omit<StreamOptions, 'after'> {
  /**
   * Replay every frame of the thread (default false: frames start after the thread was read;
   * the messages are the whole log either way).
   */
  replay?: boolean;
}

/** The code and message of anything a call or a stream may fail with. */
export function describeError(error: unknown): ThreadViewError {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  return { code: 'request_failed', message: error instanceof Error ? error.message : String(error) };
}

/** Every message of the log, page after page. */
export async function wholeLog(client: Client, threadId: string): Promise<Message[]> {
  const messages: Message[] = [];
  let after = 0;
  for (;;) {
    const page = await client.messages.list(threadId, { after, limit: 1000 });
    messages.push(...page.messages);
    if (page.next_after === null) return messages;
    after = page.next_after;
  }
}

/** Starts following; the returned function stops (closes the stream, drops late answers). */
export function followThread(
  client: Client,
  threadId: string,
  options: FollowOptions,
  dispatch: (action: ThreadAction) => void,
): () => void {
  const { replay = false, ...streamOptions } = options;
  let stopped = false;
  let stream: ThreadStream | null = null;
  const fail = (error: unknown) => {
    if (!stopped) dispatch({ type: 'failed', error: describeError(error) });
  };
  const follow = async () => {
    const thread = await client.threads.get(threadId);
    const messages = await wholeLog(client, threadId);
    if (stopped) return;
    dispatch({ type: 'loaded', thread, messages });
    const opened = client.stream(threadId, { ...streamOptions, after: replay ? 0 : thread.last_frame_seq });
    stream = opened;
    opened.on('*', (frame) => dispatch({ type: 'frame', frame }));
    opened.onState((state) => {
      dispatch({ type: 'connection', state });
      if (state === 'closed' && opened.error) fail(opened.error);
    });
    dispatch({ type: 'connection', state: opened.state });
  };
  follow().catch(fail);
  return () => {
    stopped = true;
    stream?.close();
  };
}
