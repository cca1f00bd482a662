/**
 * Double-texting through HTTP (`on_busy`, BUSY-*): a second message posted while a turn's tool is
 * running — a tool whose request the local services hold open until the test releases it — with
 * each strategy; then the log, the thread's files and the number of times each tool ran (counted
 * by the services) are checked. Nothing waits on time: each step waits for a condition.
 */
import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../client/index.js';
import { ALICE, api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { ON_BUSY_REFUSED } from '../support/hostile-corpus.js';

const worker = (exports as unknown as { default: Fetcher }).default;
const client = createClient({
  baseUrl: 'https://runtime.test',
  apiKey: ALICE,
  fetch: (input, init) => worker.fetch(new Request(input, init)),
});

/** An MCP client of the Worker's /mcp endpoint, as ALICE. */
async function mcpClient(): Promise<Client> {
  // Ajv, the client's default validator, compiles schemas to code, which workerd forbids.
  const mcp = new Client(
    { name: 'double-texting-test', version: '1.0.0' },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const transport = new StreamableHTTPClientTransport(new URL('https://runtime.test/mcp'), {
    fetch: (input, init) => worker.fetch(new Request(input, init)),
    requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
  });
  await mcp.connect(transport);
  return mcp;
}

interface WebRequest {
  path: string;
  query: Record<string, string>;
}

/** The services' requests for `key` on `path` (`/web/hold/<key>` runs of dt_hold, `/web/echo` runs of dt_count). */
async function runs(key: string, path: 'hold' | 'echo'): Promise<number> {
  const response = await fetch(`${env.SERVICES_URL}/web/requests?containing=${key}`);
  const seen = (await response.json()) as WebRequest[];
  return seen.filter((request) =>
    path === 'hold' ? request.path === `/web/hold/${key}` : request.path === '/web/echo' && request.query.text === key,
  ).length;
}

async function release(key: string): Promise<void> {
  await (await fetch(`${env.SERVICES_URL}/web/release/${key}`)).text();
}

async function untilHeld(key: string): Promise<void> {
  await until(
    () => runs(key, 'hold'),
    (count) => count === 1,
  );
}

async function file(id: string, path: string): Promise<string | null> {
  const response = await api(`/api/threads/${id}/files${path}`);
  if (response.status === 404) return null;
  return response.text();
}

function post(id: string, json: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api(`/api/threads/${id}/messages`, { method: 'POST', json, headers });
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

/** A thread whose first turn left /kept.txt ("original") and /gone.txt ("doomed"). */
async function preparedThread(agent = 'double_texting'): Promise<string> {
  const id = await createThread({
    agent,
    variables: { SERVICES_URL: env.SERVICES_URL },
    messages: [
      {
        content: directive([
          {
            toolCalls: [
              call('dt_write', { path: '/kept.txt', text: 'original' }),
              call('dt_write', { path: '/gone.txt', text: 'doomed' }),
            ],
          },
          { text: 'ready' },
        ]),
      },
    ],
  });
  await settled(id);
  return id;
}

/** The busy turn: changes /kept.txt, creates /made.txt, deletes /gone.txt, then blocks on `key`, then counts. */
function busyTurn(key: string): string {
  return directive([
    {
      toolCalls: [
        call('dt_write', { path: '/kept.txt', text: 'changed' }),
        call('dt_write', { path: '/made.txt', text: 'new' }),
        call('dt_delete', { path: '/gone.txt' }),
        call('dt_hold', { key }),
        call('dt_count', { key }),
      ],
    },
    { text: 'second done' },
  ]);
}

/** Starts the busy turn and returns once its blocking tool runs. */
async function busyThread(key: string, agent?: string): Promise<{ id: string; before: Message[] }> {
  const id = await preparedThread(agent);
  const before = await messages(id);
  expect((await post(id, { content: busyTurn(key) })).status).toBe(202);
  await untilHeld(key);
  return { id, before };
}

const contents = (log: readonly Message[]) => log.map((message) => message.content);

describe('double-texting (on_busy)', () => {
  it('BUSY-2: enqueue (the default) delivers the message to the running turn once its calls are done; every call runs once', async () => {
    const key = crypto.randomUUID();
    const { id } = await busyThread(key);
    const answer = await post(id, { content: 'third' });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ queued: true, replayed: false });
    await release(key);
    const log = await settled(id);
    const tools = log.filter((message) => message.role === 'tool').slice(2);
    expect(tools.map((message) => [message.name, message.tool_status])).toEqual([
      ['dt_write', 'success'],
      ['dt_write', 'success'],
      ['dt_delete', 'success'],
      ['dt_hold', 'success'],
      ['dt_count', 'success'],
    ]);
    expect(contents(log.slice(-2))).toEqual(['third', 'echo: third']);
    expect([await runs(key, 'hold'), await runs(key, 'echo')]).toEqual([1, 1]);
    expect([await file(id, '/kept.txt'), await file(id, '/made.txt'), await file(id, '/gone.txt')]).toEqual([
      'changed',
      'new',
      null,
    ]);
  });

  it('BUSY-3: reject answers 409 thread_busy and stores nothing; an Idempotency-Key replay still answers as before', async () => {
    const key = crypto.randomUUID();
    const id = await preparedThread();
    const second = busyTurn(key);
    const idempotency = { 'idempotency-key': `busy-${key}` };
    expect((await post(id, { content: second }, idempotency)).status).toBe(202);
    await untilHeld(key);
    const refused = await post(id, { content: 'third', on_busy: 'reject' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('thread_busy');
    // The same key and message again: the stored message's answer, not a refusal.
    const replay = await post(id, { content: second, on_busy: 'reject' }, idempotency);
    expect(replay.status).toBe(202);
    expect(await replay.json()).toMatchObject({ replayed: true });
    await release(key);
    const log = await settled(id);
    expect(contents(log)).not.toContain('third');
    expect(log.at(-1)?.content).toBe('second done');
    expect([await runs(key, 'hold'), await runs(key, 'echo')]).toEqual([1, 1]);
    // Nothing waits in the queue: the next message runs on its own.
    expect((await post(id, { content: 'fourth' })).status).toBe(202);
    expect((await settled(id)).at(-1)?.content).toBe('echo: fourth');
  });

  it('BUSY-4: interrupt lets the running tool finish and keeps its result, answers the call not started as interrupted (never run), then runs the message', async () => {
    const key = crypto.randomUUID();
    const { id } = await busyThread(key);
    const answer = await post(id, { content: 'third', on_busy: 'interrupt' });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ queued: true });
    await release(key);
    const log = await settled(id);
    const tools = log.filter((message) => message.role === 'tool').slice(2);
    expect(tools.map((message) => [message.name, message.tool_status])).toEqual([
      ['dt_write', 'success'],
      ['dt_write', 'success'],
      ['dt_delete', 'success'],
      ['dt_hold', 'success'],
      ['dt_count', 'error'],
    ]);
    expect(tools[3]?.content).toBe(`released ${key}`);
    expect(tools[4]?.content).toContain('interrupted the turn before this tool ran');
    expect(contents(log.slice(-2))).toEqual(['third', 'echo: third']);
    expect(contents(log)).not.toContain('second done');
    expect([await runs(key, 'hold'), await runs(key, 'echo')]).toEqual([1, 0]);
    // What the turn did is kept.
    expect([await file(id, '/kept.txt'), await file(id, '/made.txt'), await file(id, '/gone.txt')]).toEqual([
      'changed',
      'new',
      null,
    ]);
  });

  it('BUSY-5: rollback removes the interrupted turn from the log (its message included) and puts back a file it changed, one it created and one it deleted', async () => {
    const key = crypto.randomUUID();
    const { id, before } = await busyThread(key);
    const answer = await post(id, { content: 'third', on_busy: 'rollback' });
    expect(answer.status).toBe(202);
    await release(key);
    const log = await settled(id);
    expect(log.map((message) => message.id).slice(0, before.length)).toEqual(before.map((message) => message.id));
    expect(contents(log.slice(before.length))).toEqual(['third', 'echo: third']);
    expect([await runs(key, 'hold'), await runs(key, 'echo')]).toEqual([1, 0]);
    expect([await file(id, '/kept.txt'), await file(id, '/made.txt'), await file(id, '/gone.txt')]).toEqual([
      'original',
      null,
      'doomed',
    ]);
    // The file listing and the storage count follow the files put back.
    const details = (await (await api(`/api/threads/${id}`)).json()) as { storage: { bytes: number } };
    expect(details.storage.bytes).toBe('original'.length + 'doomed'.length);
  });

  it("BUSY-1: the agent's onBusy is the default, and a message's own on_busy overrides it", async () => {
    const key = crypto.randomUUID();
    const { id } = await busyThread(key, 'double_texting_reject');
    const refused = await post(id, { content: 'third' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('thread_busy');
    // The client sends the override too: refused by the agent's default, queued by its own.
    const viaClient = await client.messages.post(id, { content: 'fifth' }).catch((error: unknown) => error);
    expect(viaClient).toBeInstanceOf(ApiError);
    expect((viaClient as ApiError).code).toBe('thread_busy');
    // And the MCP agent tool: its on_busy follows the same rule.
    const mcp = await mcpClient();
    try {
      const refused = (await mcp.callTool({
        name: 'double_texting_reject',
        arguments: { message: 'sixth', thread_id: id, on_busy: 'reject' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('thread_busy');
    } finally {
      await mcp.close();
    }
    const queued = await client.messages.post(id, { content: 'fourth', on_busy: 'enqueue' });
    expect(queued.queued).toBe(true);
    await release(key);
    const log = await settled(id);
    expect(contents(log)).not.toContain('third');
    expect(contents(log)).not.toContain('fifth');
    expect(contents(log)).not.toContain('sixth');
    expect(contents(log.slice(-2))).toEqual(['fourth', 'echo: fourth']);
  });

  it('BUSY-6: an on_busy that is not one of the four is refused with 400 invalid_on_busy naming the field, nothing stored', async () => {
    const id = await preparedThread();
    const before = await messages(id);
    for (const value of ON_BUSY_REFUSED) {
      const response = await post(id, { content: 'x', on_busy: value });
      expect(response.status, JSON.stringify(value)).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_on_busy');
      expect(body.error.message).toContain('on_busy');
    }
    expect(await messages(id)).toEqual(before);
    expect((await thread(id)).status).toBe('idle');
  });

  it('BUSY-4: interrupt on a thread waiting for an answer answers the wait as interrupted and runs the message', async () => {
    const id = await createThread({
      agent: 'double_texting',
      variables: { SERVICES_URL: env.SERVICES_URL },
      messages: [
        { content: directive([{ toolCalls: [call('question', { questions: [{ question: 'Which colour?' }] })] }]) },
      ],
    });
    await until(
      () => thread(id),
      (view) => view.status === 'awaiting_hitl' || view.status === 'waiting',
    );
    expect((await post(id, { content: 'never mind', on_busy: 'interrupt' })).status).toBe(202);
    const log = await settled(id);
    const result = log.find((message) => message.role === 'tool');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('interrupted');
    expect(contents(log.slice(-2))).toEqual(['never mind', 'echo: never mind']);
    const waits = (await (await api(`/api/threads/${id}`)).json()) as { waiting_for: unknown[] };
    expect(waits.waiting_for).toEqual([]);
  });

  it('BUSY-7: a rollback after the object restarted mid-turn still removes the turn and puts its files back; no call runs twice', async () => {
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    const id = await preparedThread();
    const before = await messages(id);
    const turn = directive([
      {
        toolCalls: [
          call('dt_write', { path: '/kept.txt', text: 'changed' }),
          call('dt_delete', { path: '/gone.txt' }),
          call('dt_stall', { key: first }),
          call('dt_hold', { key: second }),
        ],
      },
      { text: 'second done' },
    ]);
    expect((await post(id, { content: turn })).status).toBe(202);
    await until(
      () => runs(first, 'echo'),
      (count) => count === 1,
    );
    // Torn down mid-tool, as a crash or a deploy would; the safety alarm resumes the turn.
    await abortAllDurableObjects();
    const resumed = runDurableObjectAlarm(env.THREADS.get(env.THREADS.idFromName(id)));
    await untilHeld(second);
    expect((await post(id, { content: 'third', on_busy: 'rollback' })).status).toBe(202);
    await release(second);
    await resumed;
    const log = await settled(id);
    expect(contents(log.slice(before.length))).toEqual(['third', 'echo: third']);
    expect([await file(id, '/kept.txt'), await file(id, '/gone.txt')]).toEqual(['original', 'doomed']);
    // The call cut by the restart was not run again; the other ran once.
    expect([await runs(first, 'echo'), await runs(second, 'hold')]).toEqual([1, 1]);
  });
});
