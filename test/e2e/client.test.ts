/**
 * The client (client/) against a real `wrangler dev`: every call of it, as an application makes
 * them — threads created, listed, read, stopped, deleted; messages posted (with an Idempotency-Key)
 * and listed; each kind of answer to a waiting call (a question, an approval, a client tool's
 * output, a secret); files up and down; ApiError for refusals — with the scripted model server
 * deciding what the model does, and the outcomes checked in the log and on the model's side.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client, type FrameOf, type Message } from '../../client/index.js';
import { type ClientWorker, OTHER_KEY, oneTo, StreamRecorder, startClientWorker } from './client-support.js';

let worker: ClientWorker;
let client: Client;

beforeAll(async () => {
  worker = await startClientWorker();
  client = worker.client;
});

afterAll(async () => {
  await worker?.stop();
});

const isWaiting = (frame: { type: string }): frame is FrameOf<'waiting'> => frame.type === 'waiting';

/** Starts a thread of `agent` and follows it from its first frame. */
async function started(agent: string): Promise<{ id: string; recorder: StreamRecorder }> {
  const { id } = await client.threads.create({ agent });
  return { id, recorder: new StreamRecorder(client.stream(id)) };
}

/** The tool message answering `toolCallId`. */
async function toolMessage(id: string, toolCallId: string): Promise<Message> {
  const { messages } = await client.messages.list(id);
  const message = messages.find((candidate) => candidate.tool_call_id === toolCallId);
  if (!message) throw new Error(`no tool message for ${toolCallId}: ${JSON.stringify(messages)}`);
  return message;
}

describe('the client against wrangler dev', () => {
  it('THR-5: agents.list names the example agents, their tools and the models', async () => {
    const { agents, models } = await client.agents.list();
    const byName = new Map(agents.map((agent) => [agent.name, agent]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['assistant', 'workspace', 'console']));
    expect(byName.get('workspace')?.sideA.prompt.tools.map((tool) => tool.name)).toContain('question');
    expect(byName.get('assistant')?.sideA.prompt.tools.map((tool) => tool.name)).toContain('fetch_data');
    expect(models.find((model) => model.name === 'default')).toMatchObject({ configured: true });
  });

  it('THR-5: a thread is created, read, listed, talked to, paged through and deleted', async () => {
    worker.model.reset();
    worker.model.enqueue({ text: 'Hello from the scripted model.', chunkSize: 6 });
    const tag = `client-${randomUUID()}`;
    const created = await client.threads.create({ agent: 'assistant', tags: [tag] });
    expect(created).toMatchObject({ agent: 'assistant', status: 'idle', tags: [tag], message_count: 0 });
    const recorder = new StreamRecorder(client.stream(created.id));
    try {
      const posted = await client.messages.post(created.id, { content: 'Say hello.' }, { idempotencyKey: tag });
      const again = await client.messages.post(created.id, { content: 'Say hello.' }, { idempotencyKey: tag });
      expect(posted).toMatchObject({ replayed: false });
      expect(again).toEqual({ ...posted, replayed: true });
      await recorder.settled();

      const thread = await client.threads.get(created.id);
      expect(thread).toMatchObject({ id: created.id, status: 'idle', message_count: 2, last_error: null });
      expect(recorder.frames.map((frame) => frame.seq)).toEqual(oneTo(thread.last_frame_seq));

      const { messages, next_after } = await client.messages.list(created.id);
      expect(messages.map((message) => [message.role, message.content])).toEqual([
        ['user', 'Say hello.'],
        ['assistant', 'Hello from the scripted model.'],
      ]);
      expect(next_after).toBeNull();
      const first = messages[0] as Message;
      const page = await client.messages.list(created.id, { after: first.seq, limit: 1 });
      expect(page.messages.map((message) => message.id)).toEqual([messages[1]?.id]);

      const listed = await client.threads.list({ tag });
      expect(listed.threads.map((entry) => entry.id)).toEqual([created.id]);
      expect((await client.threads.list({ tag, agent: 'workspace' })).threads).toEqual([]);
    } finally {
      recorder.stream.close();
    }

    await client.threads.delete(created.id);
    const gone = await client.threads.get(created.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, code: 'thread_not_found' });
    expect((await client.threads.list({ tag })).threads).toEqual([]);
  });

  it('THR-6: a refusal is an ApiError with the status, code and message of the body', async () => {
    const stranger = worker.clientWith({ apiKey: 'not-a-key' });
    const unauthorized = await stranger.agents.list().catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(ApiError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', message: 'invalid credentials' });

    const missing = await client.threads.get(randomUUID()).catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'thread_not_found' });

    const unknown = await client.threads.create({ agent: 'nobody' }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 400, code: 'unknown_agent' });

    const request = await client.variables.get(randomUUID(), 'no-such-request').catch((error: unknown) => error);
    expect(request).toBeInstanceOf(ApiError);
    expect((request as ApiError).status).toBe(404);
    const provided = await client.variables
      .provide(randomUUID(), 'no-such-request', { NAME: 'value' })
      .catch((error: unknown) => error);
    expect((provided as ApiError).status).toBe(404);
  });

  it('THR-5: stop aborts the running step and the thread settles', async () => {
    worker.model.reset();
    worker.model.enqueue({ text: 'This answer never finishes because the model stalls.', chunkSize: 4, stallAfter: 3 });
    const { id, recorder } = await started('assistant');
    try {
      await client.messages.post(id, { content: 'Talk slowly.' });
      await recorder.frame((frame): frame is FrameOf<'message_delta'> => frame.type === 'message_delta', 'a delta');
      const stopped = await client.threads.stop(id);
      expect(stopped.id).toBe(id);
      await recorder.waitFor(
        ({ frames }) => frames.some((frame) => frame.type === 'status' && frame.status !== 'running'),
        'the thread to leave running',
      );
      expect((await client.threads.get(id)).status).not.toBe('running');
    } finally {
      recorder.stream.close();
    }
  });

  it('LOCK-1: answers.question answers the workspace agent’s question and the model reads the answer', async () => {
    worker.model.reset();
    const questions = [{ question: 'Which color?', options: [{ label: 'teal' }, { label: 'plum' }] }];
    worker.model.enqueue(
      { toolCalls: [{ id: 'call_ask', name: 'question', arguments: JSON.stringify({ questions }) }] },
      { text: 'Teal it is.' },
    );
    const { id, recorder } = await started('workspace');
    try {
      await client.messages.post(id, { content: 'Pick a color with me.' });
      const waiting = await recorder.frame(isWaiting, 'the question');
      expect(waiting).toMatchObject({ tool_call_id: 'call_ask', kind: 'question' });
      expect((await client.threads.get(id)).waiting_for.map((wait) => wait.tool_call_id)).toEqual(['call_ask']);

      await client.answers.question(id, { tool_call_id: 'call_ask', answers: [['teal']] });
      await recorder.settled();
      const again = await client.answers
        .question(id, { tool_call_id: 'call_ask', answers: [['plum']] })
        .catch((error: unknown) => error);
      expect(again).toMatchObject({ status: 409 });

      expect(JSON.parse((await toolMessage(id, 'call_ask')).content ?? '')).toEqual({ answers: [['teal']] });
      expect(worker.model.requests[1]?.body?.messages?.at(-1)).toMatchObject({
        role: 'tool',
        tool_call_id: 'call_ask',
      });
    } finally {
      recorder.stream.close();
    }
  });

  it('KIND-5: answers.approval rejects the assistant’s fetch_data call and the model is told why', async () => {
    worker.model.reset();
    worker.model.enqueue(
      {
        toolCalls: [
          { id: 'call_fetch', name: 'fetch_data', arguments: JSON.stringify({ endpoint: 'https://a.test/x' }) },
        ],
      },
      { text: 'Understood, no fetching.' },
    );
    const { id, recorder } = await started('assistant');
    try {
      await client.messages.post(id, { content: 'Fetch https://a.test/x' });
      expect(await recorder.frame(isWaiting, 'the approval')).toMatchObject({
        tool_call_id: 'call_fetch',
        kind: 'approval',
      });
      await client.answers.approval(id, { tool_call_id: 'call_fetch', approved: false, reason: 'not on this network' });
      await recorder.settled();
      const result = await toolMessage(id, 'call_fetch');
      expect(result.tool_status).toBe('error');
      expect(result.content).toContain('not on this network');
      expect(worker.model.requests).toHaveLength(2);
    } finally {
      recorder.stream.close();
    }
  });

  it('KIND-3: answers.toolResult brings a client tool’s output; one that misses the schema is a 400', async () => {
    worker.model.reset();
    worker.model.enqueue(
      {
        toolCalls: [{ id: 'call_pick', name: 'pick_color', arguments: JSON.stringify({ palette: ['teal', 'plum'] }) }],
      },
      { text: 'Plum, then.' },
    );
    const { id, recorder } = await started('console');
    try {
      await client.messages.post(id, { content: 'Pick a color.' });
      const waiting = await recorder.frame(isWaiting, 'the client tool');
      expect(waiting).toMatchObject({ kind: 'client_tool', payload: { arguments: { palette: ['teal', 'plum'] } } });

      const refused = await client.answers
        .toolResult(id, { tool_call_id: 'call_pick', output: { colour: 7 } })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 400 });

      await client.answers.toolResult(id, { tool_call_id: 'call_pick', output: { color: 'plum' } });
      await recorder.settled();
      expect(JSON.parse((await toolMessage(id, 'call_pick')).content ?? '')).toEqual({ color: 'plum' });
    } finally {
      recorder.stream.close();
    }
  });

  it('VAR-5: answers.secret seals a credential that the next tool reads and nothing shows', async () => {
    const secret = `console-${randomUUID()}`;
    worker.model.reset();
    worker.model.enqueue(
      {
        toolCalls: [
          { id: 'call_store', name: 'store_secret', arguments: JSON.stringify({ name: 'CONSOLE_TOKEN', reason: 'x' }) },
        ],
      },
      { toolCalls: [{ id: 'call_length', name: 'token_length', arguments: '{}' }] },
      { text: 'The token is stored.' },
    );
    const { id, recorder } = await started('console');
    try {
      await client.messages.post(id, { content: 'Store the console token.' });
      expect(await recorder.frame(isWaiting, 'the secret')).toMatchObject({
        tool_call_id: 'call_store',
        kind: 'secret',
      });
      const short = await client.answers
        .secret(id, { tool_call_id: 'call_store', value: 'short' })
        .catch((error: unknown) => error);
      expect(short).toMatchObject({ status: 400, code: 'secret_too_short' });

      await client.answers.secret(id, { tool_call_id: 'call_store', value: secret });
      await recorder.settled();
      expect((await toolMessage(id, 'call_length')).content).toBe(`the token has ${secret.length} characters`);
      const everything = JSON.stringify([await client.messages.list(id), recorder.frames, worker.model.requests]);
      expect(everything).not.toContain(secret);
    } finally {
      recorder.stream.close();
    }
  });

  it('ATT-5: files go up and come back byte for byte; folders list; a missing file is a 404', async () => {
    const { id } = await client.threads.create({ agent: 'workspace' });
    const text = await client.files.put(id, '/notes/hello world.txt', 'hello, files', 'text/plain');
    expect(text).toMatchObject({ type: 'file', path: '/notes/hello world.txt', size: 12, mimeType: 'text/plain' });
    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    await client.files.put(id, 'data/bytes.bin', bytes, 'application/octet-stream');

    const download = await client.files.get(id, '/notes/hello world.txt');
    expect(download.headers.get('content-type')).toContain('text/plain');
    expect(await download.text()).toBe('hello, files');
    expect(new Uint8Array(await (await client.files.get(id, '/data/bytes.bin')).arrayBuffer())).toEqual(bytes);

    expect((await client.files.list(id, '/notes')).entries).toEqual([
      expect.objectContaining({ name: 'hello world.txt', kind: 'file', size: 12 }),
    ]);
    const root = await client.files.list(id);
    expect(root.entries.map((entry) => [entry.name, entry.kind]).sort()).toEqual([
      ['data', 'directory'],
      ['notes', 'directory'],
    ]);
    const missing = await client.files.get(id, '/nothing/here.txt').catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'file_not_found' });
  });

  it('THR-6: each client acts as its key: a thread of another key does not exist for it', async () => {
    const { id } = await client.threads.create({ agent: 'assistant' });
    const other = worker.clientWith({ apiKey: OTHER_KEY });
    await expect(other.threads.get(id)).rejects.toMatchObject({ status: 404, code: 'thread_not_found' });
    expect((await other.threads.list()).threads.map((thread) => thread.id)).not.toContain(id);
    expect((await client.threads.get(id)).id).toBe(id);
  });
});
