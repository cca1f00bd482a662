/**
 * THR-3 end to end: `wrangler dev` is killed with SIGKILL while a turn streams the model's answer,
 * then started again on the same state. With no request to the Worker, the thread's safety alarm
 * resumes the turn: the model is asked again and the turn ends with its answer, and the text
 * streamed before the crash is marked abandoned. (How long resuming takes is measured by the
 * benchmark, not asserted here.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const KEY = 'restart-key';
const ANSWER = 'Resumed after the restart.';

let model: OpenAIServer;
let state: string;
let dev: WranglerDev | undefined;

function start(port?: number) {
  return startWranglerDev({
    persistTo: state,
    ...(port ? { port } : {}),
    vars: { API_KEYS: KEY, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'x', MODEL: 'fake-model' },
  });
}

/** Resolves once the model server has received `count` requests; the Worker is never asked. */
async function modelRequests(count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (model.requests.length < count) {
    if (Date.now() > deadline) throw new Error(`the model received ${model.requests.length} requests, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  model = await startOpenAIServer();
  state = await mkdtemp(join(tmpdir(), 'restart-state-'));
});

afterAll(async () => {
  await dev?.stop();
  await model?.close();
  await rm(state, { recursive: true, force: true });
});

describe('a crash of the whole runtime mid-turn', () => {
  it('THR-3: after kill -9 and a restart the turn resumes by itself and abandons the text streamed before', async () => {
    dev = await start();
    const api = new ApiClient(dev.url, KEY);
    // Step one streams a few deltas and then stalls: the crash comes in the middle of the stream.
    model.enqueue({ text: 'This answer never finishes because the runtime dies.', chunkSize: 5, stallAfter: 4 });
    model.enqueue({ text: ANSWER });
    const { id } = await api.createThread({ agent: 'assistant' });
    const live = await api.openStream(id);
    await api.postMessage(id, 'Tell me something.');
    await live.waitFor((frames) => frames.some((frame) => frame.type === 'message_delta'), 'streamed text');
    const streamedId = live.frames.find((frame) => frame.type === 'message_delta')?.message_id;
    live.close();

    await dev.kill();
    dev = await start(dev.port);
    // No request reaches the Worker until the model has been asked again: the alarm alone resumes.
    await modelRequests(2);

    const resumed = new ApiClient(dev.url, KEY);
    const replay = await resumed.openStream(id, 0);
    await replay.waitFor(
      (frames) => frames.some((frame) => frame.type === 'status' && frame.status === 'idle'),
      'the end of the resumed turn',
    );
    replay.close();
    const log = await resumed.messages(id);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: ANSWER });
    expect(log.filter((message) => message.role === 'assistant')).toHaveLength(1);
    expect(replay.frames).toContainEqual(
      expect.objectContaining({ type: 'message_abandoned', message_id: streamedId }),
    );
  });
});
