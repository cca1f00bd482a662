/**
 * Forks, edits and rewinds through HTTP (FORK-1 to FORK-7), with a scripted model whose tools write,
 * delete and read files, send something outside the thread, use a secret, and start a child thread.
 * Each test checks what the new or rewound thread holds, and that the source and everyone else are
 * unchanged.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../client/index.js';
import { ALICE, api, BOB, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { HOSTILE_HISTORY_BODIES, HOSTILE_MESSAGE_IDS } from '../support/hostile-corpus.js';
import { ADMIN_KEY, call as adminCall } from '../support/worker-calls.js';

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

interface Details {
  id: string;
  status: string;
  message_count: number;
  forked_from: { thread_id: string; message_id: string | null } | null;
  children: { id: string }[];
  storage: { bytes: number };
}

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

async function details(id: string, key = ALICE): Promise<Details> {
  return (await (await api(`/api/threads/${id}`, { key })).json()) as Details;
}

async function file(id: string, path: string): Promise<string | null> {
  const response = await api(`/api/threads/${id}/files${path}`);
  if (response.status === 404) return null;
  return response.text();
}

async function files(id: string, paths: string[]): Promise<(string | null)[]> {
  return Promise.all(paths.map((path) => file(id, path)));
}

function fork(id: string, json: Record<string, unknown>, key = ALICE) {
  return api(`/api/threads/${id}/fork`, { method: 'POST', json, key });
}

function rewind(id: string, json: Record<string, unknown>, key = ALICE) {
  return api(`/api/threads/${id}/rewind`, { method: 'POST', json, key });
}

function edit(id: string, mid: string, json: Record<string, unknown>, key = ALICE) {
  return api(`/api/threads/${id}/messages/${encodeURIComponent(mid)}/edit`, { method: 'POST', json, key });
}

async function forked(id: string, at: string): Promise<Details> {
  const response = await fork(id, { at });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { thread: Details }).thread;
}

async function refusal(response: Response, status: number, code: string): Promise<ErrorBody['error']> {
  const body = (await response.json()) as ErrorBody;
  expect([response.status, body.error.code], body.error.message).toEqual([status, code]);
  return body.error;
}

function post(id: string, content: string) {
  return api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } });
}

const FIRST = directive([
  {
    toolCalls: [
      call('hist_write', { path: '/a.txt', text: 'v1' }),
      call('hist_write', { path: '/gone.txt', text: 'here' }),
    ],
  },
  { text: 'one done' },
]);

const SECOND = directive([
  {
    toolCalls: [
      call('hist_write', { path: '/a.txt', text: 'v2' }),
      call('hist_delete', { path: '/gone.txt' }),
      call('hist_write', { path: '/new.txt', text: 'n' }),
    ],
  },
  { text: 'two done' },
]);

/** A thread of two turns: the first writes /a.txt (v1) and /gone.txt, the second rewrites /a.txt (v2), deletes /gone.txt, writes /new.txt. */
async function twoTurns(agent = 'history'): Promise<{ id: string; log: Message[] }> {
  const id = await createThread({
    agent,
    variables: { SERVICES_URL: env.SERVICES_URL },
    messages: [{ content: FIRST }],
  });
  await settled(id);
  expect((await post(id, SECOND)).status).toBe(202);
  const log = await until(
    () => settled(id),
    (current) => current.at(-1)?.content === 'two done',
  );
  return { id, log };
}

const PATHS = ['/a.txt', '/gone.txt', '/new.txt'];

/** Runs the object's alarm now, as any alarm it arms for itself would. */
async function alarmNow(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) =>
    state.storage.setAlarm(Date.now() + 60_000),
  );
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

describe('fork', () => {
  it('FORK-2, FORK-5: a fork holds the log up to the point and the files as they were there, at each point', async () => {
    const { id, log } = await twoTurns();
    const firstAnswer = log.find((message) => message.content === 'one done') as Message;
    const lastResult = log[3] as Message;
    expect(lastResult.role).toBe('tool');

    // After the first turn's tool round: the before-versions, not the later writes; the deleted file is back.
    for (const point of [lastResult, firstAnswer]) {
      const copy = await forked(id, point.id);
      const copied = await messages(copy.id);
      const upTo = log.findIndex((message) => message.id === point.id);
      expect(copied.map((message) => [message.id, message.seq, message.content])).toEqual(
        log.slice(0, upTo + 1).map((message) => [message.id, message.seq, message.content]),
      );
      expect(await files(copy.id, PATHS)).toEqual(['v1', 'here', null]);
      expect(copy).toMatchObject({ status: 'idle', forked_from: { thread_id: id, message_id: point.id } });
      // Counted for the fork: 'v1' and 'here'.
      expect(copy.storage.bytes).toBe(6);
    }
    // At the end: the newest files.
    const latest = await forked(id, (log.at(-1) as Message).id);
    expect(await files(latest.id, PATHS)).toEqual(['v2', null, 'n']);
    // The source is unchanged.
    expect(await messages(id)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
  });

  it('FORK-2: the fork is idle, takes a message at once, and its turn sees the copied log; the source hears nothing', async () => {
    const { id, log } = await twoTurns();
    const copy = await forked(id, (log[4] as Message).id);
    expect((await post(copy.id, 'hello')).status).toBe(202);
    const after = await until(
      () => settled(copy.id),
      (current) => current.at(-1)?.content === 'echo: hello',
    );
    expect(after.slice(0, 5)).toEqual(log.slice(0, 5));
    expect(await messages(id)).toEqual(log);
  });

  it("FORK-2: forked_from shows in the details, the listing, and ?forked_from= lists a thread's forks", async () => {
    const { id, log } = await twoTurns();
    const one = await forked(id, (log[4] as Message).id);
    const two = await forked(id, (log.at(-1) as Message).id);
    const listed = (await (await api(`/api/threads?forked_from=${id}`)).json()) as {
      threads: { id: string; forked_from: string | null }[];
    };
    expect(listed.threads.map((row) => [row.id, row.forked_from]).sort()).toEqual(
      [
        [one.id, id],
        [two.id, id],
      ].sort(),
    );
    expect((await details(id)).forked_from).toBeNull();
    const all = (await (await api('/api/threads?limit=200')).json()) as {
      threads: { id: string; forked_from: string | null }[];
    };
    expect(all.threads.find((row) => row.id === id)?.forked_from).toBeNull();
    // Bob sees none of Alice's forks.
    const bobs = (await (await api(`/api/threads?forked_from=${id}`, { key: BOB })).json()) as { threads: unknown[] };
    expect(bobs.threads).toEqual([]);
  });

  it('FORK-2: a fork may run another agent, with other values; an unknown agent is refused and nothing is created', async () => {
    const { id, log } = await twoTurns();
    const response = await fork(id, {
      at: (log[4] as Message).id,
      agent: 'history_other',
      variables: { HIST_TOKEN: 'another-token-123' },
    });
    expect(response.status).toBe(201);
    const copy = ((await response.json()) as { thread: Details & { agent: string } }).thread;
    expect(copy.agent).toBe('history_other');
    await refusal(await fork(id, { at: (log[4] as Message).id, agent: 'no_such_agent' }), 400, 'unknown_agent');
    const forks = (await (await api(`/api/threads?forked_from=${id}`)).json()) as { threads: unknown[] };
    expect(forks.threads.length).toBe(1);
  });

  it('FORK-4: a point inside a tool round is refused, naming the nearest points; nothing is created', async () => {
    const { id, log } = await twoTurns();
    const before = (await (await api('/api/threads?limit=200')).json()) as { threads: unknown[] };
    for (const inside of [log[1], log[2]] as Message[]) {
      const error = await refusal(await fork(id, { at: inside.id }), 409, 'point_mid_round');
      expect(error.details).toEqual({ before: log[0]?.id, after: log[3]?.id });
    }
    const after = (await (await api('/api/threads?limit=200')).json()) as { threads: unknown[] };
    expect(after.threads.length).toBe(before.threads.length);
  });

  it("FORK-4: another thread's message id, an unknown id, another user's thread: 404, nothing created", async () => {
    const { id, log } = await twoTurns();
    const other = await twoTurns();
    await refusal(await fork(id, { at: (other.log[0] as Message).id }), 404, 'message_not_found');
    await refusal(await fork(id, { at: 'no-such-message' }), 404, 'message_not_found');
    await refusal(await fork(id, { at: (log[0] as Message).id }, BOB), 404, 'thread_not_found');
    await refusal(await rewind(id, { to: (log[0] as Message).id }, BOB), 404, 'thread_not_found');
    await refusal(await edit(id, (log[0] as Message).id, { content: 'x' }, BOB), 404, 'thread_not_found');
    const bobs = (await (await api('/api/threads?limit=200', { key: BOB })).json()) as {
      threads: { forked_from: string | null }[];
    };
    expect(bobs.threads.filter((row) => row.forked_from === id)).toEqual([]);
    expect(await messages(id)).toEqual(log);
  });

  it("FORK-1: another tenant's admin finds neither the thread nor its messages; nothing is created", async () => {
    const { id, log } = await twoTurns();
    const tenant = `other-${crypto.randomUUID().slice(0, 8)}`;
    const issued = await adminCall('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role: 'admin' } });
    const key = ((await issued.json()) as { key: string }).key;
    const at = (log[4] as Message).id;
    for (const [path, json] of [
      [`/api/threads/${id}/fork`, { at }],
      [`/api/threads/${id}/rewind`, { to: at, force: true }],
      [`/api/threads/${id}/messages/${(log[5] as Message).id}/edit`, { content: 'x' }],
    ] as const) {
      await refusal(await adminCall(path, key, { method: 'POST', json }), 404, 'thread_not_found');
    }
    const theirs = (await (await adminCall('/api/threads', key)).json()) as { threads: unknown[] };
    expect(theirs.threads).toEqual([]);
    expect(await messages(id)).toEqual(log);
  });

  it('FORK-5: uploads and the files of a message are history too: a fork before them has none of them', async () => {
    const { id, log } = await twoTurns();
    const upload = await api(`/api/threads/${id}/files/up.txt`, {
      method: 'PUT',
      body: 'uploaded',
      headers: { 'content-type': 'text/plain' },
    });
    expect(upload.status).toBe(201);
    const content = [
      { type: 'text', text: 'with a note' },
      { type: 'file', data: btoa('a note'), mime_type: 'text/plain', name: 'note.txt' },
    ];
    expect((await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } })).status).toBe(202);
    const after = await until(
      () => settled(id),
      (current) => current.length > log.length + 1,
    );
    const noted = after[log.length] as Message;
    const notePath = noted.attachments?.[0]?.path ?? '';
    expect(await file(id, notePath)).toBe('a note');
    const before = await forked(id, (log.at(-1) as Message).id);
    expect(await files(before.id, ['/up.txt', notePath])).toEqual([null, null]);
    const at = await forked(id, noted.id);
    expect(await files(at.id, ['/up.txt', notePath])).toEqual(['uploaded', 'a note']);
  });

  it('PERM-1, FORK-2: the session rules are copied: a write the source refuses, the fork refuses too', async () => {
    const id = await createThread({
      agent: 'history',
      variables: { SERVICES_URL: env.SERVICES_URL },
      permissions: [{ permission: 'fs.write', pattern: '/locked/*', action: 'deny' }],
      messages: [{ content: FIRST }],
    });
    const log = await settled(id);
    const copy = await forked(id, (log.at(-1) as Message).id);
    const attempt = directive([
      { toolCalls: [call('hist_write', { path: '/locked/x.txt', text: 'no' })] },
      { text: 'tried' },
    ]);
    expect((await post(copy.id, attempt)).status).toBe(202);
    const after = await until(
      () => settled(copy.id),
      (current) => current.at(-1)?.content === 'tried',
    );
    expect(after.at(-2)?.tool_status).toBe('error');
    expect(after.at(-2)?.content).toContain('fs.write, /locked/*, deny');
    expect(await file(copy.id, '/locked/x.txt')).toBeNull();
  });

  it('FORK-5: the file history is deleted with its thread', async () => {
    const { id } = await twoTurns();
    expect((await env.FILES.list({ prefix: `history/${id}/` })).objects.length).toBeGreaterThan(0);
    expect((await api(`/api/threads/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await env.FILES.list({ prefix: `history/${id}/` })).objects).toEqual([]);
  });

  it('FORK-2: a thread waiting for an answer forks before the wait; the fork does not wait, not_copied names the wait', async () => {
    const { id, log } = await twoTurns();
    const ask = directive([
      { toolCalls: [call('question', { questions: [{ question: 'Sure?' }] })] },
      { text: 'asked' },
    ]);
    expect((await post(id, ask)).status).toBe(202);
    const waiting = await until(
      () => details(id),
      (view) => view.status === 'awaiting_hitl' || view.status === 'waiting',
    );
    const response = await fork(id, { at: (log.at(-1) as Message).id });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as {
      thread: Details & { waiting_for: unknown[] };
      not_copied: { waits: string[] };
    };
    const asked = (await messages(id)).find((message) =>
      message.tool_calls?.some((c) => c.function.name === 'question'),
    );
    expect(answer.not_copied.waits).toEqual([asked?.tool_calls?.[0]?.id]);
    expect([answer.thread.status, answer.thread.waiting_for]).toEqual(['idle', []]);
    expect((await details(id)).status).toBe(waiting.status);
  });

  it('FORK-2: a fork after a subagent answered has the answer, not the child; the child stays with the source', async () => {
    const child = directive([{ text: 'child says hi' }]);
    const id = await createThread({
      agent: 'history',
      variables: { SERVICES_URL: env.SERVICES_URL },
      messages: [
        {
          content: directive([
            { toolCalls: [call('task', { description: 'sub', prompt: child })] },
            { text: 'parent done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const result = log.find((message) => message.role === 'tool') as Message;
    expect(result.content).toBe('child says hi');
    const source = await details(id);
    expect(source.children.length).toBe(1);
    const response = await fork(id, { at: result.id });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { thread: Details; not_copied: { waits: string[]; children: string[] } };
    expect(answer.not_copied).toEqual({ waits: [], children: [source.children[0]?.id] });
    expect(answer.thread.children).toEqual([]);
    expect((await messages(answer.thread.id)).at(-1)?.content).toBe('child says hi');
  });

  it("VAR-3, FORK-2: the fork's secret is sealed anew under its own key: a tool uses it, nobody reads it", async () => {
    const secret = `tok-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'history',
      variables: { SERVICES_URL: env.SERVICES_URL, HIST_TOKEN: secret },
      messages: [{ content: directive([{ toolCalls: [call('hist_token', {})] }, { text: 'checked' }]) }],
    });
    const log = await settled(id);
    const proof = log.find((message) => message.role === 'tool')?.content;
    expect(proof).toMatch(/^token sha256 [0-9a-f]{64}$/);
    const copy = await forked(id, (log.at(-1) as Message).id);
    expect((await post(copy.id, directive([{ toolCalls: [call('hist_token', {})] }, { text: 'again' }]))).status).toBe(
      202,
    );
    const after = await until(
      () => settled(copy.id),
      (current) => current.at(-1)?.content === 'again',
    );
    expect(after.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      proof,
      proof,
    ]);
    // Stored sealed, under a key that is not the source's: the sealed texts differ.
    const sealed = async (thread: string) =>
      runInDurableObject(
        env.THREADS.get(env.THREADS.idFromName(thread)),
        (_object: unknown, state: DurableObjectState) =>
          state.storage.sql.exec<{ value: string }>("SELECT value FROM variables WHERE name = 'HIST_TOKEN'").one()
            .value,
      );
    const [mine, theirs] = [await sealed(copy.id), await sealed(id)];
    expect(mine).not.toContain(secret);
    expect(mine).not.toBe(theirs);
    const everything = JSON.stringify([after, await details(copy.id)]);
    expect(everything).not.toContain(secret);
  });

  it('THR-3, FORK-2: a fork survives eviction: its log, files and forked_from read the same after', async () => {
    const { id, log } = await twoTurns();
    const copy = await forked(id, (log[4] as Message).id);
    const before = [await messages(copy.id), await files(copy.id, PATHS), (await details(copy.id)).forked_from];
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(copy.id)));
    expect([await messages(copy.id), await files(copy.id, PATHS), (await details(copy.id)).forked_from]).toEqual(
      before,
    );
  });

  it('FORK-2, FORK-6: a fork or a rewind ending where a turn would go on runs nothing at an alarm or after an eviction; a message starts it', async () => {
    const { id, log } = await twoTurns();
    // The last result of the first round (the model has not answered it there) and the first user message.
    const atResult = await forked(id, (log[3] as Message).id);
    const atUser = await forked(id, (log[0] as Message).id);
    expect((await rewind(id, { to: (log[3] as Message).id })).status).toBe(200);
    for (const thread of [atResult.id, atUser.id, id]) {
      const stub = () => env.THREADS.get(env.THREADS.idFromName(thread));
      const before = await messages(thread);
      // Any alarm (an index retry, an effect, a schedule), and again in a new instance after an eviction.
      await alarmNow(stub());
      await evictDurableObject(stub());
      await alarmNow(stub());
      expect([await messages(thread), (await details(thread)).status]).toEqual([before, 'idle']);
    }
    // Held only until something is added: a message runs its turn as on any idle thread.
    expect((await post(atResult.id, 'go on')).status).toBe(202);
    const after = await until(
      () => settled(atResult.id),
      (current) => current.at(-1)?.content === 'echo: go on',
    );
    expect(after.slice(0, 4)).toEqual(log.slice(0, 4));
  });

  it('FORK-4: a running thread forks at a point before its turn, not inside it (409 point_running); rewind waits for it (409 thread_busy)', async () => {
    const { id, log } = await twoTurns();
    const key = crypto.randomUUID();
    expect(
      (await post(id, directive([{ toolCalls: [call('hist_hold', { key })] }, { text: 'held done' }]))).status,
    ).toBe(202);
    const running = await until(
      () => messages(id),
      (current) => current.some((message) => message.tool_calls?.some((c) => c.function.name === 'hist_hold')),
    );
    const started = running[log.length] as Message;
    expect(started.role).toBe('user');
    await refusal(await fork(id, { at: started.id }), 409, 'point_running');
    await refusal(await rewind(id, { to: (log.at(-1) as Message).id }), 409, 'thread_busy');
    const copy = await forked(id, (log.at(-1) as Message).id);
    expect((await messages(copy.id)).length).toBe(log.length);
    await (await fetch(`${env.SERVICES_URL}/web/release/${key}`)).text();
    await until(
      () => settled(id),
      (current) => current.at(-1)?.content === 'held done',
    );
  });
});

/** The thread's stored frames, oldest first. */
async function frames(id: string): Promise<{ type: string; [key: string]: unknown }[]> {
  return runInDurableObject(
    env.THREADS.get(env.THREADS.idFromName(id)),
    (_object: unknown, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ body: string }>('SELECT body FROM frames ORDER BY seq')
        .toArray()
        .map((row) => JSON.parse(row.body) as { type: string }),
  );
}

describe('rewind', () => {
  it('FORK-6: over idempotent and read-only calls, the log after the point goes and the files are put back; the thread goes on from there', async () => {
    const { id, log } = await twoTurns();
    const point = log[4] as Message;
    const response = await rewind(id, { to: point.id });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { thread: Details; removed_messages: number; restored_files: number };
    expect(answer).toMatchObject({ removed_messages: log.length - 5, restored_files: 3 });
    expect(answer.thread.message_count).toBe(5);
    expect(await messages(id)).toEqual(log.slice(0, 5));
    expect(await files(id, PATHS)).toEqual(['v1', 'here', null]);
    expect((await details(id)).storage.bytes).toBe(6);
    // The stream says so: the removed messages, then where the thread was rewound to.
    const tail = (await frames(id)).slice(-2).map(({ seq: _, ...frame }) => frame);
    expect(tail).toEqual([
      { type: 'message_deleted', message_ids: log.slice(5).map((message) => message.id) },
      { type: 'rewound', to: point.id },
    ]);
    expect((await post(id, 'again')).status).toBe(202);
    const after = await until(
      () => settled(id),
      (current) => current.at(-1)?.content === 'echo: again',
    );
    expect(after.slice(0, 5)).toEqual(log.slice(0, 5));
    expect(after.length).toBe(7);
    // A fork of the rewound thread at the point sees the same files.
    const copy = await forked(id, point.id);
    expect(await files(copy.id, PATHS)).toEqual(['v1', 'here', null]);
  });

  it('FORK-6: over a call that changed something outside the thread, 409 side_effects names it and nothing changes; force rewinds', async () => {
    const { id, log } = await twoTurns();
    expect(
      (
        await post(
          id,
          directive([
            { toolCalls: [call('hist_send', { text: 'sent' }), call('hist_write', { path: '/a.txt', text: 'v3' })] },
            { text: 'sent done' },
          ]),
        )
      ).status,
    ).toBe(202);
    const full = await until(
      () => settled(id),
      (current) => current.at(-1)?.content === 'sent done',
    );
    const send = full.find((message) => message.tool_calls?.some((c) => c.function.name === 'hist_send')) as Message;
    const sendCall = send.tool_calls?.find((c) => c.function.name === 'hist_send');
    const error = await refusal(await rewind(id, { to: (log.at(-1) as Message).id }), 409, 'side_effects');
    expect(error.details).toEqual({ calls: [{ tool_call_id: sendCall?.id, tool: 'hist_send' }] });
    expect(await messages(id)).toEqual(full);
    expect(await files(id, PATHS)).toEqual(['v3', null, 'n']);
    const forced = await rewind(id, { to: (log.at(-1) as Message).id, force: true });
    expect(forced.status).toBe(200);
    expect(await messages(id)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
  });

  it('FORK-4, FORK-6: a point inside a tool round, or of another thread, is refused and nothing changes', async () => {
    const { id, log } = await twoTurns();
    const other = await twoTurns();
    const error = await refusal(await rewind(id, { to: (log[7] as Message).id }), 409, 'point_mid_round');
    expect(error.details).toEqual({ before: log[5]?.id, after: log[9]?.id });
    await refusal(await rewind(id, { to: (other.log[4] as Message).id }), 404, 'message_not_found');
    expect(await messages(id)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
    expect(await messages(other.id)).toEqual(other.log);
  });

  it('FORK-7: the file history is bounded; a point it no longer reaches is refused with 409 history_expired naming the oldest it does', async () => {
    const big = (letter: string) =>
      directive([{ toolCalls: [call('hist_big', { path: '/big.bin', mib: 3, letter })] }, { text: `${letter} done` }]);
    const id = await createThread({
      agent: 'history',
      variables: { SERVICES_URL: env.SERVICES_URL },
      messages: [{ content: big('a') }],
    });
    await settled(id);
    for (const letter of ['b', 'c']) {
      expect((await post(id, big(letter))).status).toBe(202);
      await until(
        () => settled(id),
        (current) => current.at(-1)?.content === `${letter} done`,
      );
    }
    const log = await messages(id);
    // The copies of 'a' and 'b' (3 MiB each) do not both fit the 4 MiB bound: 'a''s went.
    const aDone = log.find((message) => message.content === 'a done') as Message;
    const bDone = log.find((message) => message.content === 'b done') as Message;
    const error = await refusal(await fork(id, { at: aDone.id }), 409, 'history_expired');
    expect(error.details).toEqual({ oldest: expect.any(String) });
    await refusal(await rewind(id, { to: aDone.id }), 409, 'history_expired');
    const copy = await forked(id, bDone.id);
    expect(((await file(copy.id, '/big.bin')) ?? '').slice(0, 3)).toBe('bbb');
    expect(await messages(id)).toEqual(log);
  });

  it("FORK-7: a fork's history starts at its fork point: a rewind of the fork to before it is refused, its files unchanged", async () => {
    const { id, log } = await twoTurns();
    const firstAnswer = log.find((message) => message.content === 'one done') as Message;
    const copy = await forked(id, (log.at(-1) as Message).id);
    // Before the fork point the fork's files were its source's, which the fork never recorded.
    const error = await refusal(await rewind(copy.id, { to: firstAnswer.id, force: true }), 409, 'history_expired');
    expect(error.details).toEqual({ oldest: (log.at(-1) as Message).id });
    await refusal(await fork(copy.id, { at: firstAnswer.id }), 409, 'history_expired');
    expect(await messages(copy.id)).toEqual(log);
    expect(await files(copy.id, PATHS)).toEqual(['v2', null, 'n']);
    // At the fork point itself, and after it, the fork's own history answers.
    expect((await rewind(copy.id, { to: (log.at(-1) as Message).id })).status).toBe(200);
    // The source still reaches back.
    const back = await forked(id, firstAnswer.id);
    expect(await files(back.id, PATHS)).toEqual(['v1', 'here', null]);
  });
});

describe('the undo journal and the file history', () => {
  it("BUSY-5, FORK-5: a turn rolled back shares the history's copies (no second copy of a write), and puts the files back", async () => {
    const { id, log } = await twoTurns();
    const key = crypto.randomUUID();
    const busy = directive([
      { toolCalls: [call('hist_write', { path: '/a.txt', text: 'v3' }), call('hist_hold', { key })] },
      { text: 'busy done' },
    ]);
    expect((await post(id, busy)).status).toBe(202);
    await until(
      () => messages(id),
      (current) => current.some((message) => message.tool_calls?.some((c) => c.function.name === 'hist_hold')),
    );
    // The write of /a.txt was copied once, by the history; the undo journal holds no copy of its own.
    expect((await env.FILES.list({ prefix: `undo/${id}/` })).objects).toEqual([]);
    expect((await env.FILES.list({ prefix: `history/${id}/` })).objects.length).toBeGreaterThan(0);
    const rollback = await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: 'instead', on_busy: 'rollback' },
    });
    expect(rollback.status).toBe(202);
    await (await fetch(`${env.SERVICES_URL}/web/release/${key}`)).text();
    const after = await until(
      () => settled(id),
      (current) => current.at(-1)?.content === 'echo: instead',
    );
    expect(after.slice(0, log.length)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
    // The history still tells the files at every point.
    const copy = await forked(id, (log[4] as Message).id);
    expect(await files(copy.id, PATHS)).toEqual(['v1', 'here', null]);
  });
});

describe('edit and resend', () => {
  it('FORK-3, MSG-1: the edited message may be parts, as a posted message may: text and a file of the fork', async () => {
    const { id, log } = await twoTurns();
    const content = [
      { type: 'text', text: 'read this' },
      { type: 'file', path: '/a.txt' },
    ];
    const response = await edit(id, (log[5] as Message).id, { content });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as { thread: Details; message_id: string };
    const after = await until(
      () => settled(answer.thread.id),
      (current) => current.length > 6,
    );
    const posted = after.find((message) => message.id === answer.message_id) as Message;
    expect(posted.content).toBe('read this');
    expect(posted.attachments?.map((file) => file.path)).toEqual(['/a.txt']);
    // The file is the fork's, as it was before the edited message: v1.
    expect(await file(answer.thread.id, '/a.txt')).toBe('v1');
  });

  it('FORK-3: editing a user message forks before it and posts the new content there; the original is unchanged', async () => {
    const { id, log } = await twoTurns();
    const second = log[5] as Message;
    expect(second.role).toBe('user');
    const response = await edit(id, second.id, { content: 'hello instead' });
    expect(response.status, await response.clone().text()).toBe(201);
    const answer = (await response.json()) as { thread: Details; message_id: string; not_copied: unknown };
    expect(answer.thread.forked_from).toEqual({ thread_id: id, message_id: (log[4] as Message).id });
    const after = await until(
      () => settled(answer.thread.id),
      (current) => current.at(-1)?.content === 'echo: hello instead',
    );
    expect(after.slice(0, 5)).toEqual(log.slice(0, 5));
    expect(after[5]).toMatchObject({ id: answer.message_id, role: 'user', content: 'hello instead' });
    expect(await files(answer.thread.id, PATHS)).toEqual(['v1', 'here', null]);
    expect(await messages(id)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
  });

  it('FORK-3: editing the first message makes a fork with nothing before it', async () => {
    const { id, log } = await twoTurns();
    const response = await edit(id, (log[0] as Message).id, { content: 'from scratch' });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { thread: Details };
    expect(answer.thread.forked_from).toEqual({ thread_id: id, message_id: null });
    const after = await until(
      () => settled(answer.thread.id),
      (current) => current.at(-1)?.content === 'echo: from scratch',
    );
    expect(after.map((message) => message.content)).toEqual(['from scratch', 'echo: from scratch']);
    expect(await files(answer.thread.id, PATHS)).toEqual([null, null, null]);
  });

  it('FORK-3: only user messages are edited (400 not_a_user_message); nothing is created', async () => {
    const { id, log } = await twoTurns();
    const before = (await (await api(`/api/threads?forked_from=${id}`)).json()) as { threads: unknown[] };
    await refusal(await edit(id, (log[4] as Message).id, { content: 'x' }), 400, 'not_a_user_message');
    await refusal(await edit(id, 'no-such-message', { content: 'x' }), 404, 'message_not_found');
    const after = (await (await api(`/api/threads?forked_from=${id}`)).json()) as { threads: unknown[] };
    expect([before.threads, after.threads]).toEqual([[], []]);
  });
});

describe('the client library', () => {
  const worker = (exports as unknown as { default: Fetcher }).default;
  const client = createClient({
    baseUrl: 'https://runtime.test',
    apiKey: ALICE,
    fetch: (input, init) => worker.fetch(new Request(input, init)),
  });

  it('FORK-2, FORK-3, FORK-6: client.threads.fork, client.messages.edit and client.threads.rewind; a refusal is an ApiError with its details', async () => {
    const { id, log } = await twoTurns();
    const forkedThread = await client.threads.fork(id, { at: (log[4] as Message).id });
    expect(forkedThread.thread.forked_from).toEqual({ thread_id: id, message_id: log[4]?.id });
    const edited = await client.messages.edit(id, (log[5] as Message).id, { content: 'edited' });
    expect(edited.thread.forked_from?.message_id).toBe(log[4]?.id);
    const refused = await client.threads.fork(id, { at: (log[2] as Message).id }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'point_mid_round' });
    const rewound = await client.threads.rewind(id, { to: (log[4] as Message).id });
    expect([rewound.removed_messages, rewound.restored_files]).toEqual([log.length - 5, 3]);
  });
});

describe('hostile points and bodies', () => {
  it('FORK-1, FORK-4: every hostile message id is not found by fork, rewind or edit; nothing is created or changed, another thread is unharmed', async () => {
    const { id, log } = await twoTurns();
    const other = await twoTurns();
    for (const hostile of HOSTILE_MESSAGE_IDS) {
      await refusal(await fork(id, { at: hostile }), 404, 'message_not_found');
      await refusal(await rewind(id, { to: hostile, force: true }), 404, 'message_not_found');
      await refusal(await edit(id, hostile, { content: 'x' }), 404, 'message_not_found');
    }
    const forks = (await (await api(`/api/threads?forked_from=${id}`)).json()) as { threads: unknown[] };
    expect(forks.threads).toEqual([]);
    expect(await messages(id)).toEqual(log);
    expect(await files(id, PATHS)).toEqual(['v2', null, 'n']);
    expect(await messages(other.id)).toEqual(other.log);
  });

  it('FORK-1: malformed fork and rewind bodies are refused before the thread is asked; nothing changes', async () => {
    const { id, log } = await twoTurns();
    for (const { route, body, code } of HOSTILE_HISTORY_BODIES) {
      const response =
        route === 'fork'
          ? await fork(id, body as Record<string, unknown>)
          : await rewind(id, body as Record<string, unknown>);
      await refusal(response, 400, code);
    }
    const forks = (await (await api(`/api/threads?forked_from=${id}`)).json()) as { threads: unknown[] };
    expect(forks.threads).toEqual([]);
    expect(await messages(id)).toEqual(log);
  });
});
