import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

const longAnswer = 'The answer streams in several small deltas, not in one piece at the end of the step.';

describe('WebSocket stream', () => {
  it('THR-2: frames are numbered consecutively and model text arrives as deltas', async () => {
    const id = await createThread({ agent: 'general' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: longAnswer }]) },
    });
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    const seqs = stream.frames.map((frame) => frame.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    const answer = (await messages(id)).at(-1);
    const deltas = stream.frames.filter((frame) => frame.type === 'message_delta' && frame.message_id === answer?.id);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((frame) => (frame.type === 'message_delta' ? frame.delta : '')).join('')).toBe(longAnswer);
    expect(stream.frames.map((frame) => frame.type)).toEqual(
      expect.arrayContaining(['message', 'tool_started', 'tool_result', 'status']),
    );
    stream.close();
  });

  it('THR-2: a client reconnecting with ?after= gets every frame it missed and none twice', async () => {
    const id = await createThread({ agent: 'general' });
    const first = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: longAnswer }]) },
    });
    // Disconnect part-way, as a flaky network would.
    const cut = await first.waitFor((frame) => frame.type === 'tool_result');
    first.close();
    await settled(id);
    const last = (await thread(id)).last_frame_seq;
    const resumed = await openStream(id, cut.seq);
    await resumed.waitFor((frame) => frame.seq === last);
    expect(resumed.frames.map((frame) => frame.seq)).toEqual(
      Array.from({ length: last - cut.seq }, (_, index) => cut.seq + 1 + index),
    );
    // The replay is the same frames, not look-alikes.
    const full = await openStream(id, 0);
    await full.waitFor((frame) => frame.seq === last);
    expect(resumed.frames).toEqual(full.frames.slice(cut.seq));
    resumed.close();
    full.close();
  });

  it('THR-2: a "ping" is answered with "pong" so idle sockets can be checked', async () => {
    const id = await createThread({ agent: 'general' });
    const response = await api(`/api/threads/${id}/stream`, { headers: { upgrade: 'websocket' } });
    const socket = response.webSocket as WebSocket;
    const pong = new Promise<string>((resolve) =>
      socket.addEventListener('message', (event) => resolve(String(event.data))),
    );
    socket.accept();
    socket.send('ping');
    expect(await pong).toBe('pong');
    socket.close();
  });

  it('THR-2: a plain GET on the stream path explains that it needs a WebSocket', async () => {
    const id = await createThread({ agent: 'general' });
    const response = await api(`/api/threads/${id}/stream`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upgrade_required');
  });
});
