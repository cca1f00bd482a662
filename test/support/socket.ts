/**
 * A WebSocket client for tests in workerd: opens a thread's stream through the Worker and collects
 * its frames.
 */
import type { NumberedFrame } from '../../src/engine/ports/frames.js';
import { ALICE, api, thread, until } from './api.js';

export interface FrameCollector {
  frames: NumberedFrame[];
  close(): void;
  /** Resolves once a frame satisfying `check` has arrived. */
  waitFor(check: (frame: NumberedFrame) => boolean, timeoutMs?: number): Promise<NumberedFrame>;
}

export async function openStream(id: string, after?: number, key = ALICE): Promise<FrameCollector> {
  const query = after === undefined ? '' : `?after=${after}`;
  const response = await api(`/api/threads/${id}/stream${query}`, { key, headers: { upgrade: 'websocket' } });
  const socket = response.webSocket;
  if (response.status !== 101 || !socket) throw new Error(`stream refused: ${response.status}`);
  const frames: NumberedFrame[] = [];
  socket.addEventListener('message', (event) => {
    if (typeof event.data === 'string' && event.data.startsWith('{')) frames.push(JSON.parse(event.data));
  });
  socket.accept();
  return {
    frames,
    close: () => socket.close(1000, 'test done'),
    async waitFor(check, timeoutMs = 25_000) {
      await until(
        async () => frames.find(check),
        (found) => found !== undefined,
        timeoutMs,
      );
      return frames.find(check) as NumberedFrame;
    },
  };
}

/** All frames of the thread so far, replayed from the start over a stream opened for the purpose. */
export async function allFrames(id: string, key = ALICE): Promise<NumberedFrame[]> {
  const last = (await thread(id, key)).last_frame_seq;
  const stream = await openStream(id, 0, key);
  await until(
    async () => stream.frames.length,
    (count) => count >= last,
  );
  stream.close();
  return stream.frames;
}
