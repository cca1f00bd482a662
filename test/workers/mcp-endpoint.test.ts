/**
 * The Worker as an MCP server (THR-5, THR-6): the SDK's own client, in workerd, speaks Streamable
 * HTTP to `/mcp` through the Worker's fetch handler, exactly as a remote client would. Every test
 * makes its own threads; the scripted model plays the script each test writes into its message.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { Message } from '@standardagents/spec';
import { afterEach, describe, expect, it } from 'vitest';
import type { Registry } from '../../src/engine/registry/index.js';
import { userIdForKey } from '../../src/http/identity/index.js';
import { agentToolNames } from '../../src/http/mcp/tool-names.js';
import { followTurn } from '../../src/http/mcp/turn-follower.js';
import type { Principal } from '../../src/thread/access/index.js';
import type { RuntimeEnv } from '../../src/thread/bindings/index.js';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

const worker = (exports as unknown as { default: Fetcher }).default;
const MCP_URL = new URL('https://runtime.test/mcp');

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(key = ALICE): Promise<Client> {
  // Ajv, the client's default validator, compiles schemas to code, which workerd forbids.
  const client = new Client(
    { name: 'mcp-endpoint-test', version: '1.0.0' },
    {
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const transport = new StreamableHTTPClientTransport(MCP_URL, {
    fetch: (input, init) => worker.fetch(new Request(input, init)),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Answer {
  thread_id: string;
  status: string;
  answer: string;
  reason?: string;
  waiting_for?: { tool_call_id: string; kind: string; name: string; payload: unknown }[];
  error?: { code: string; message: string };
}

function texts(result: CallToolResult): string[] {
  return result.content.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`));
}

async function call(client: Client, name: string, args: Record<string, unknown>, onprogress?: (p: Progress) => void) {
  const result = (await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  )) as CallToolResult;
  return { result, answer: result.structuredContent as unknown as Answer | undefined, texts: texts(result) };
}

const echoThenAnswer = (text: string, answer: string) =>
  directive([{ toolCalls: [{ name: 'echo', arguments: { text } }] }, { text: answer }]);

describe('the MCP endpoint', () => {
  it('THR-5: tools/list offers every agent, list_threads and read_thread, with input schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const agents = ((await (await api('/api/agents')).json()) as { agents: { name: string }[] }).agents;
    const names = tools.map((tool) => tool.name);
    expect(new Set(names)).toEqual(new Set([...agents.map((agent) => agent.name), 'list_threads', 'read_thread']));
    expect(names).toHaveLength(agents.length + 2);
    for (const tool of tools) expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    const general = tools.find((tool) => tool.name === 'general');
    expect(general?.description).toContain('general agent');
    expect(general?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, thread_id: { type: 'string' }, variables: { type: 'object' } },
      required: ['message'],
    });
    expect(general?.outputSchema).toMatchObject({
      type: 'object',
      properties: { thread_id: { type: 'string' }, status: {}, answer: { type: 'string' } },
    });
    // An agent with required variables says which a new thread needs.
    expect(tools.find((tool) => tool.name === 'with_secrets')?.description).toContain('API_TOKEN, region');
    expect(tools.find((tool) => tool.name === 'list_threads')?.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        agent: { type: 'string' },
        status: { enum: ['idle', 'running', 'waiting', 'awaiting_hitl', 'error', 'terminated'] },
        limit: {},
      },
    });
    expect(tools.find((tool) => tool.name === 'read_thread')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { thread_id: { type: 'string' }, after: {}, limit: {} },
      required: ['thread_id'],
    });
  });

  it('THR-5: an agent tool runs a turn with a tool call and answers its final text, streaming progress', async () => {
    const client = await connect();
    const progress: Progress[] = [];
    const {
      result,
      answer,
      texts: text,
    } = await call(client, 'general', { message: echoThenAnswer('from mcp', 'echo said: from mcp, all done') }, (p) =>
      progress.push(p),
    );
    expect(result.isError).toBeFalsy();
    expect(answer).toEqual({
      thread_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'idle',
      answer: 'echo said: from mcp, all done',
      reason: 'response',
    });
    const id = answer?.thread_id as string;
    expect(text).toEqual(['echo said: from mcp, all done', `thread_id: ${id}`]);

    // The thread is an ordinary thread of the caller, with the messages of the turn.
    const view = await api(`/api/threads/${id}`);
    expect(view.status).toBe(200);
    expect(await view.json()).toMatchObject({ id, agent: 'general', status: 'idle', tags: ['mcp'] });
    const log = await messages(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log[2]?.content).toBe('from mcp');
    expect(log[3]?.content).toBe('echo said: from mcp, all done');

    // Progress: the thread, the tool call started and finished, then the answer's text in deltas.
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, index) => index + 1));
    const notes = progress.map((p) => p.message);
    expect(notes.slice(0, 3)).toEqual([`thread ${id}`, 'calling echo', 'echo finished']);
    expect(notes.slice(3).join('')).toBe('echo said: from mcp, all done');
    expect(notes.length).toBe(3 + Math.ceil('echo said: from mcp, all done'.length / 16));
  });

  it('THR-5: thread_id continues the same thread; without a progress token the stream holds only the result', async () => {
    const client = await connect();
    const first = await call(client, 'general', { message: 'first words' });
    const id = first.answer?.thread_id as string;
    expect(first.answer).toMatchObject({ status: 'idle', answer: 'echo: first words' });
    const second = await call(client, 'general', {
      message: echoThenAnswer('again', 'second answer'),
      thread_id: id,
    });
    expect(second.answer).toEqual({ thread_id: id, status: 'idle', answer: 'second answer', reason: 'response' });

    // On the wire: one POST, answered by an event stream whose only event is the result.
    const response = await api('/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      json: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'general', arguments: { message: 'third words', thread_id: id } },
      },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n').filter((line) => line.startsWith('data: '));
    expect(events.map((line) => JSON.parse(line.slice(6)))).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        result: expect.objectContaining({
          structuredContent: { thread_id: id, status: 'idle', answer: 'echo: third words', reason: 'response' },
        }),
      },
    ]);
    const log = await messages(id);
    expect(log.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first words'],
      ['assistant', 'echo: first words'],
      ['user', expect.stringContaining('"script"')],
      ['assistant', null],
      ['tool', 'again'],
      ['assistant', 'second answer'],
      ['user', 'third words'],
      ['assistant', 'echo: third words'],
    ]);
  });

  it("THR-6: another user's thread is refused as not found, and so is an id that is no thread", async () => {
    const bobs = await createThread({ agent: 'general', messages: [{ content: 'mine' }] }, BOB);
    await settled(bobs, BOB);
    const client = await connect(ALICE);
    const posted = await call(client, 'general', { message: 'let me in', thread_id: bobs });
    expect(posted.result.isError).toBe(true);
    expect(posted.texts.join('\n')).toBe(`thread_not_found: no thread ${bobs}`);
    const read = await call(client, 'read_thread', { thread_id: bobs });
    expect(read.result.isError).toBe(true);
    expect(read.texts.join('\n')).toBe(`thread_not_found: no thread ${bobs}`);
    expect((await call(client, 'general', { message: 'x', thread_id: 'nope' })).texts[0]).toBe(
      'thread_not_found: no thread nope',
    );
    // Nothing reached Bob's thread.
    expect((await messages(bobs, '', BOB)).map((m) => m.content)).toEqual(['mine', 'echo: mine']);
  });

  it('THR-6: a bad or missing key is a 401 with the API error body and a Bearer challenge', async () => {
    await expect(connect('not-a-key')).rejects.toMatchObject({ code: 401 });
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Record<string, string>[]) {
      const response = await worker.fetch(
        new Request(MCP_URL, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        }),
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="standard-agents"/);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    // The key never travels in the query string here (THR-6: only the stream's WebSocket upgrade).
    const query = await worker.fetch(new Request(`${MCP_URL}?token=${ALICE}`, { method: 'POST' }));
    expect(query.status).toBe(401);
  });

  it('THR-5: the endpoint is stateless: GET and DELETE are 405; the OpenAPI document lists it', async () => {
    const doc = (await (await api('/openapi.json', { key: null })).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths['/mcp'] ?? {})).toEqual(['post', 'get', 'delete']);
    for (const method of ['GET', 'DELETE']) {
      const response = await api('/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('THR-5: read_thread and list_threads answer what the HTTP API answers', async () => {
    const tag = `mcp-list-${crypto.randomUUID()}`;
    const ids = [];
    for (const content of ['one', 'two']) {
      const id = await createThread({ agent: 'general', tags: [tag], messages: [{ content }] });
      await settled(id);
      ids.push(id);
    }
    const client = await connect();
    const listed = await call(client, 'list_threads', { tag, limit: 1 });
    const http = await (await api(`/api/threads?tag=${tag}&limit=1`)).json();
    expect(listed.result.structuredContent).toEqual(http);
    expect(JSON.parse(listed.texts[0] as string)).toEqual(http);
    const next = await call(client, 'list_threads', {
      tag,
      cursor: (http as { next_cursor: string }).next_cursor,
      status: 'idle',
    });
    expect(next.result.structuredContent).toEqual(
      await (
        await api(`/api/threads?tag=${tag}&status=idle&cursor=${(http as { next_cursor: string }).next_cursor}`)
      ).json(),
    );
    expect(
      new Set(
        [listed, next].flatMap((page) =>
          (page.result.structuredContent as { threads: { id: string }[] }).threads.map((t) => t.id),
        ),
      ),
    ).toEqual(new Set(ids));
    // Every field a listed thread has is declared in the tool's output schema: a strict client
    // (the SDK's default validator in Node) refuses a listing with one undeclared.
    const { tools } = await client.listTools();
    const declared = tools.find((tool) => tool.name === 'list_threads')?.outputSchema as unknown as {
      properties: { threads: { items: { properties: Record<string, unknown>; additionalProperties?: boolean } } };
    };
    const row = (http as { threads: Record<string, unknown>[] }).threads[0] as Record<string, unknown>;
    expect(Object.keys(declared.properties.threads.items.properties).sort()).toEqual(Object.keys(row).sort());

    const read = await call(client, 'read_thread', { thread_id: ids[0] });
    expect(read.result.structuredContent).toEqual(await (await api(`/api/threads/${ids[0]}/messages`)).json());
    const page = await call(client, 'read_thread', { thread_id: ids[0], after: 1, limit: 1 });
    expect(page.result.structuredContent).toEqual(
      await (await api(`/api/threads/${ids[0]}/messages?after=1&limit=1`)).json(),
    );
  });

  it('LOCK-1: a turn that ends waiting for a question says what it waits for, and a message then is refused', async () => {
    const client = await connect();
    const questions = [{ question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] }];
    const {
      result,
      answer,
      texts: text,
    } = await call(client, 'general', {
      message: directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'got it' }]),
    });
    expect(result.isError).toBeFalsy();
    const id = answer?.thread_id as string;
    expect(answer).toMatchObject({ thread_id: id, status: 'waiting', answer: '' });
    expect(answer?.waiting_for).toEqual([
      expect.objectContaining({ kind: 'question', name: 'question', payload: expect.objectContaining({}) }),
    ]);
    const callId = answer?.waiting_for?.[0]?.tool_call_id as string;
    expect(text[0]).toContain('The thread waits for a human');
    expect(text[0]).toContain('Which colour? [red | blue]');
    expect(text[0]).toContain(`POST /api/threads/${id}/answers`);
    expect(text[0]).toContain(callId);
    expect((await thread(id)).status).toBe('waiting');

    const refused = await call(client, 'general', { message: 'blue', thread_id: id });
    expect(refused.result.isError).toBe(true);
    expect(refused.texts[0]).toContain(`thread ${id} waits for a human, and a message does not answer it`);
    expect((await messages(id)).length).toBe(2);

    // Answered over HTTP, the thread goes on; read_thread shows the rest.
    await api(`/api/threads/${id}/answers`, { method: 'POST', json: { tool_call_id: callId, answers: [['blue']] } });
    const log = await settled(id);
    expect(log[log.length - 1]?.content).toBe('got it');
  });

  it('VAR-2, THR-4: missing variables and a failing turn are error results that say why', async () => {
    const client = await connect();
    const missing = await call(client, 'with_secrets', { message: 'hello' });
    expect(missing.result.isError).toBe(true);
    expect(missing.texts[0]).toBe(
      'missing_variables: required variables without a value: API_TOKEN, region {"missing":["API_TOKEN","region"]}',
    );
    const failed = await call(client, 'general', { message: '{"fail":"model is down"}' });
    expect(failed.result.isError).toBe(true);
    expect(failed.answer).toMatchObject({ status: 'error', error: { code: 'turn_failed', message: 'model is down' } });
    expect(failed.texts[0]).toBe('the turn failed (turn_failed): model is down');
    expect(await thread(failed.answer?.thread_id as string)).toMatchObject({ status: 'error' });
    const mixed = await call(client, 'general', { message: 'x', thread_id: failed.answer?.thread_id, variables: {} });
    expect(mixed.texts[0]).toBe('variables apply to a new thread only: leave them out with thread_id');
    const wrongAgent = await call(client, 'limited', { message: 'x', thread_id: failed.answer?.thread_id });
    expect(wrongAgent.texts[0]).toContain('belongs to the general agent: continue it with the general tool');
  });

  it('THR-5: cancelling the call stops the thread turn through the stop path', async () => {
    const client = await connect();
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = client.callTool(
      {
        name: 'general',
        arguments: { message: directive([{ toolCalls: [{ name: 'wait_for_abort' }] }, { text: 'never reached' }]) },
      },
      undefined,
      {
        signal: controller.signal,
        onprogress: (p) => {
          seen.push(p.message ?? '');
          // The tool runs and waits for its abort signal: nothing else can end the turn.
          if (p.message === 'calling wait_for_abort') controller.abort('changed my mind');
        },
      },
    );
    await expect(pending).rejects.toThrow();
    const id = (seen[0] as string).replace('thread ', '');
    const view = await until(
      () => thread(id),
      (current) => current.status === 'idle',
    );
    expect(view.status).toBe('idle');
    const log = await messages(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(log[2]).toMatchObject({ tool_status: 'error' });
    expect(log[2]?.content).toContain('stopped');
  });
});

describe('following a turn through the frame stream', () => {
  const runtimeEnv: RuntimeEnv = env;
  const follow = (threadId: string, deadlineMs: number, frames: string[] = []) =>
    followTurn({
      env: runtimeEnv,
      principal: { tenant: 'default', subject: '', role: 'approver', via: 'api_keys' },
      threadId,
      after: 0,
      isOurs: (message: Message) => message.role === 'user',
      onFrame: (frame) => frames.push(frame.type),
      deadlineMs,
    });

  async function blockedThread(): Promise<{ id: string; principal: Principal }> {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'wait_for_abort' }] }]) }],
    });
    await until(
      () => thread(id),
      (view) => view.status === 'running' && view.message_count === 2,
    );
    return {
      id,
      principal: { tenant: 'default', subject: await userIdForKey(ALICE), role: 'approver', via: 'api_keys' },
    };
  }

  it('THR-5: a turn longer than the wait is reported as still running, then its end is seen', async () => {
    const { id, principal } = await blockedThread();
    const base = { env: runtimeEnv, principal, threadId: id, after: 0, isOurs: (m: Message) => m.role === 'user' };
    const early = await followTurn({ ...base, onFrame: () => {}, deadlineMs: 200 });
    expect(early).toEqual({ kind: 'still_running', why: 'deadline', answer: '' });
    const frames: string[] = [];
    const ending = followTurn({ ...base, onFrame: (frame) => frames.push(frame.type), deadlineMs: 20_000 });
    await api(`/api/threads/${id}/stop`, { method: 'POST' });
    expect(await ending).toEqual({ kind: 'ended', status: 'idle', reason: 'stopped', answer: '', delivered: true });
    expect(frames).toContain('tool_started');
    expect(frames[frames.length - 1]).toBe('status');
  });

  it('THR-2: a stream the thread closes is reopened after the last frame seen: no frame lost, none twice', async () => {
    const { id, principal } = await blockedThread();
    const seqs: number[] = [];
    const types: string[] = [];
    const ending = followTurn({
      env: runtimeEnv,
      principal,
      threadId: id,
      after: 0,
      isOurs: (m) => m.role === 'user',
      onFrame: (frame) => {
        seqs.push(frame.seq);
        types.push(frame.type);
      },
      deadlineMs: 20_000,
    });
    await until(
      async () => types,
      (seen) => seen.includes('tool_started'),
    );
    // As a restarting object does: the thread closes every socket, the turn goes on.
    await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), async (_instance, state) => {
      for (const socket of state.getWebSockets()) socket.close(1012, 'restarting');
    });
    await api(`/api/threads/${id}/stop`, { method: 'POST' });
    expect(await ending).toEqual({ kind: 'ended', status: 'idle', reason: 'stopped', answer: '', delivered: true });
    const first = seqs[0] as number;
    expect(seqs).toEqual(seqs.map((_, index) => first + index));
    expect(types.slice(-3)).toEqual(['tool_result', 'message', 'status']);
  });

  it('THR-2: a thread deleted mid-turn ends its turn stopped; following it again finds no thread', async () => {
    const { id, principal } = await blockedThread();
    const base = { env: runtimeEnv, principal, threadId: id, after: 0, isOurs: (m: Message) => m.role === 'user' };
    const ending = followTurn({ ...base, onFrame: () => {}, deadlineMs: 20_000 });
    expect((await api(`/api/threads/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await ending).toEqual({ kind: 'ended', status: 'idle', reason: 'stopped', answer: '', delivered: true });
    expect(await followTurn({ ...base, onFrame: () => {}, deadlineMs: 20_000 })).toEqual({ kind: 'gone' });
  });

  it("THR-6: the stream of a thread is another user's not found", async () => {
    const { id } = await blockedThread();
    expect(await follow(id, 20_000)).toEqual({ kind: 'gone' });
    await api(`/api/threads/${id}/stop`, { method: 'POST' });
  });
});

describe('tool names', () => {
  it('THR-5: agent names become tool names clients accept, without collisions, the same every time', () => {
    const names = ['research assistant', 'research.assistant', 'list_threads', 'a'.repeat(80), '日本', '-x-'];
    const registry = { agents: new Map(names.map((name) => [name, {}])) } as unknown as Registry;
    expect([...agentToolNames(registry).values()]).toEqual([
      'research_assistant',
      'research_assistant_2',
      'list_threads_2',
      'a'.repeat(64),
      'agent',
      'x',
    ]);
  });
});
