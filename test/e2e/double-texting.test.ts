/**
 * Double-texting end to end under a real `wrangler dev` (the example application's workspace agent,
 * a local OpenAI-compatible model server): a turn writes a file, then its next model answer stalls
 * mid-stream; a message posted with `on_busy: "rollback"` cuts that stream, removes the turn from
 * the log (its message included, with a `message_deleted` frame), puts the file back as it was, and
 * runs. Every wait is on a condition.
 */
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, type Reply, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient, type FrameRecorder } from './client.js';

const KEY = 'double-texting-key';

let model: OpenAIServer;
let dev: WranglerDev | undefined;
let stream: FrameRecorder | undefined;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

/**
 * "write <text>" writes /notes.txt, then answers "written"; with "hold" in the text, that answer
 * stalls after its first words instead, its stream left open until the client goes away.
 */
function respond(body: { messages?: Array<{ role: string; content?: unknown }> }): Reply {
  const messages = body.messages ?? [];
  const user = textOf([...messages].reverse().find((message) => message.role === 'user')?.content);
  const last = messages.at(-1);
  if (!user.startsWith('write ')) return { text: `echo: ${user}` };
  if (last?.role === 'user') {
    return {
      toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: '/notes.txt', content: user.slice(6) }) }],
    };
  }
  return user.includes('hold') ? { text: 'Let me think about that for a long', stallAfter: 4 } : { text: 'written' };
}

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const answered = (log: Message[], text: string) =>
  log.at(-1)?.role === 'assistant' && log.at(-1)?.content === text && !log.at(-1)?.tool_calls;

beforeAll(async () => {
  model = await startOpenAIServer({ respond });
  dev = await startWranglerDev({
    snapshot: true,
    vars: { API_KEYS: KEY, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'x', MODEL: 'fake-model' },
  });
});

afterAll(async () => {
  stream?.close();
  await dev?.stop();
  await model?.close();
});

describe('on_busy under wrangler dev', () => {
  it('BUSY-5: rollback cuts a streaming model step, removes the turn from the log and puts its file back, then runs the message', async () => {
    const api = new ApiClient((dev as WranglerDev).url, KEY);
    const { id } = await api.createThread({ agent: 'workspace', messages: [{ content: 'write v1' }] });
    const before = await until(
      () => api.messages(id),
      (log) => answered(log, 'written'),
      'the first turn',
    );
    const readNotes = async () => (await api.request(`/api/threads/${id}/files/notes.txt`)).text();
    expect(await readNotes()).toBe('v1');
    stream = await api.openStream(id);

    await api.postMessage(id, 'write v2 hold');
    // The turn has written v2 and its next answer is streaming, stalled.
    await until(
      async () => model.requests.filter((request) => request.body?.messages?.at(-1)?.role === 'tool').length,
      (count) => count === 2,
      'the stalled answer after the second write',
    );
    expect(await readNotes()).toBe('v2 hold');
    const posted = await api.request(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: 'never mind', on_busy: 'rollback' },
    });
    expect(posted.status).toBe(202);

    const log = await until(
      () => api.messages(id),
      (list) => answered(list, 'echo: never mind'),
      'the answer to the message',
    );
    expect(log.slice(0, before.length).map((message) => message.id)).toEqual(before.map((message) => message.id));
    expect(log.slice(before.length).map((message) => [message.role, message.content])).toEqual([
      ['user', 'never mind'],
      ['assistant', 'echo: never mind'],
    ]);
    expect(await readNotes()).toBe('v1');
    await stream.waitFor(
      (frames) => frames.some((frame) => frame.type === 'message_deleted'),
      'a message_deleted frame for the rolled-back turn',
    );
    const deleted = stream.frames.flatMap((frame) => (frame.type === 'message_deleted' ? frame.message_ids : []));
    // The turn's user message, its call and result, and the cut answer are gone.
    expect(deleted.length).toBeGreaterThanOrEqual(3);
    expect(model.requests.find((request) => request.closedEarly)).toBeDefined();
  });
});
