/**
 * Waiting for a turn to end, told by the thread's own frames: a `status` frame saying `running`, then
 * the next one saying anything else (`idle`, `error`, `waiting`, ...). The stream is opened after the
 * last frame seen before the message was posted, so a turn too quick to watch is still seen whole.
 */
import type { Client, FrameOf, ThreadStatus } from '../../client/index.js';

export interface TurnWatch {
  /** Resolves with the status the turn ended in. */
  ended: Promise<ThreadStatus>;
  close(): void;
}

export function watchTurn(client: Client, threadId: string, after: number, signal: AbortSignal): TurnWatch {
  const stream = client.stream(threadId, { after, transport: 'sse' });
  const ended = new Promise<ThreadStatus>((resolve, reject) => {
    let running = false;
    const stop = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    stream.on('status', (frame: FrameOf<'status'>) => {
      if (frame.status === 'running') running = true;
      else if (running) resolve(frame.status);
    });
    stream.onState((state) => {
      if (state === 'closed' && stream.error)
        reject(new Error(`the thread's stream was refused: ${stream.error.message}`));
    });
  });
  return { ended, close: () => stream.close() };
}
