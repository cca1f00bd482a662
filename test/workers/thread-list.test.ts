/**
 * The thread list as a page keeps it live, through the Worker's HTTP API: `?status=waiting` lists the
 * threads that wait on a person (and nobody else's, and not a thread waiting only for its subagent);
 * every page has an ETag and answers 304 while it is unchanged, whatever `If-None-Match` is sent; the
 * inbox of waits (`GET /api/waits`) lists the open waits of the threads the caller sees, filtered,
 * paginated, oldest first, and drops a wait once it is answered or its thread deleted; and a blocking
 * subagent's call lasts as long as the subagent ran, not the millisecond of its completion.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import {
  IF_NONE_MATCH_CASES,
  LIST_STATUS_FORGERIES,
  OVERSIZED_WAIT_ARGUMENTS,
  WAIT_LIST_FORGERIES,
} from '../support/hostile-corpus.js';

interface Listed {
  threads: { id: string; status: string }[];
  next_cursor: string | null;
}

async function list(query: string, key = ALICE): Promise<Listed> {
  const response = await api(`/api/threads?${query}`, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Listed;
}

/** Starts a thread whose first step calls `toolCalls`, and waits until the index shows it paused. */
async function pausedOn(
  tag: string,
  call: { name: string; arguments?: Record<string, unknown> },
  status: string,
  key = ALICE,
) {
  const id = await createThread(
    { agent: 'general', tags: [tag], messages: [{ content: directive([{ toolCalls: [call] }, { text: 'ok' }]) }] },
    key,
  );
  await until(
    () => list(`tag=${tag}`, key),
    (page) => page.threads.some((listed) => listed.id === id && listed.status === status),
  );
  return id;
}

describe('GET /api/threads?status=waiting', () => {
  it('THR-1: lists the threads waiting on a person, not one waiting for its subagent, not idle ones, not another key’s', async () => {
    const tag = `waiting-${crypto.randomUUID()}`;
    const question = await pausedOn(
      tag,
      { name: 'question', arguments: { questions: [{ question: 'Which colour?' }] } },
      'waiting',
    );
    const approval = await pausedOn(tag, { name: 'guarded_increment' }, 'waiting');
    const hitl = await pausedOn(tag, { name: 'refund', arguments: { amount: 500 } }, 'awaiting_hitl');
    const client = await pausedOn(tag, { name: 'client_lookup', arguments: { key: 'k1' } }, 'waiting');
    // Waits for a child that runs until it is stopped: at work, nobody has to answer it.
    const childScript = directive([{ toolCalls: [{ name: 'wait_for_abort' }] }]);
    const parent = await pausedOn(
      tag,
      { name: 'task', arguments: { description: 'long work', prompt: childScript } },
      'waiting',
    );
    const idle = await createThread({ agent: 'general', tags: [tag] });
    const bobs = await pausedOn(tag, { name: 'guarded_increment' }, 'waiting', BOB);

    const waiting = await list(`tag=${tag}&status=waiting`);
    expect(waiting.threads.map((listed) => listed.id).sort()).toEqual([question, approval, hitl, client].sort());
    // The exact statuses still filter as before; the waiting list is no new field of a row.
    expect((await list(`tag=${tag}&status=awaiting_hitl`)).threads.map((listed) => listed.id)).toEqual([hitl]);
    expect((await list(`tag=${tag}&status=idle`)).threads.map((listed) => listed.id)).toEqual([idle]);
    for (const row of waiting.threads) expect(Object.keys(row)).not.toContain('person_waits');
    expect((await list(`tag=${tag}&status=waiting`, BOB)).threads.map((listed) => listed.id)).toEqual([bobs]);

    // Answered, the question's thread goes back to work and leaves the list.
    const view = (await (await api(`/api/threads/${question}`)).json()) as { waiting_for: { tool_call_id: string }[] };
    const answered = await api(`/api/threads/${question}/answers`, {
      method: 'POST',
      json: { tool_call_id: view.waiting_for[0]?.tool_call_id, answers: [['red']] },
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    await settled(question);
    await until(
      () => list(`tag=${tag}&status=waiting`),
      (page) => !page.threads.some((listed) => listed.id === question),
    );
    expect((await api(`/api/threads/${parent}/stop`, { method: 'POST' })).status).toBe(200);
  });

  it('THR-1: a status that names no status is refused, and lists nothing', async () => {
    for (const status of LIST_STATUS_FORGERIES) {
      const response = await api(`/api/threads?status=${encodeURIComponent(status)}`);
      expect(response.status, JSON.stringify(status)).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });
});

describe('GET /api/threads with If-None-Match', () => {
  it('THR-1: an unchanged page answers 304 without a body; a new thread or a status change gives a new tag', async () => {
    const tag = `etag-${crypto.randomUUID()}`;
    await createThread({ agent: 'general', tags: [tag] });
    const first = await api(`/api/threads?tag=${tag}`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{24}"$/);

    const again = await api(`/api/threads?tag=${tag}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');

    // A new thread changes the page. It waits on a question: its status holds until it is answered.
    const added = await pausedOn(
      tag,
      { name: 'question', arguments: { questions: [{ question: 'Which?' }] } },
      'waiting',
    );
    const changed = await api(`/api/threads?tag=${tag}`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    const whileWaiting = changed.headers.get('etag') ?? '';
    expect(whileWaiting).not.toBe(etag);
    expect(((await changed.json()) as Listed).threads.map((listed) => listed.id)).toContain(added);

    // So does a status change: answered, the turn ends and the row says idle.
    const view = (await (await api(`/api/threads/${added}`)).json()) as { waiting_for: { tool_call_id: string }[] };
    const answered = await api(`/api/threads/${added}/answers`, {
      method: 'POST',
      json: { tool_call_id: view.waiting_for[0]?.tool_call_id, answers: [['yes']] },
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    await settled(added);
    const ended = await until(
      () => api(`/api/threads?tag=${tag}`, { headers: { 'if-none-match': whileWaiting } }),
      (response) => response.status === 200,
    );
    expect(ended.headers.get('etag')).not.toBe(whileWaiting);
    expect(((await ended.json()) as Listed).threads.find((listed) => listed.id === added)?.status).toBe('idle');
  });

  it('THR-1: the client asks with the last tag: null while unchanged, the new page and tag after a change', async () => {
    const worker = (exports as unknown as { default: Fetcher }).default;
    const client = createClient({
      baseUrl: 'https://runtime.test',
      apiKey: ALICE,
      fetch: (input, init) => worker.fetch(new Request(input, init)),
    });
    const tag = `etag-client-${crypto.randomUUID()}`;
    const first = await client.threads.listIfChanged({ tag }, null);
    expect(first?.page.threads).toEqual([]);
    expect(await client.threads.listIfChanged({ tag }, first?.etag ?? null)).toBeNull();
    const id = await createThread({ agent: 'general', tags: [tag] });
    const next = await client.threads.listIfChanged({ tag }, first?.etag ?? null);
    expect(next?.page.threads.map((listed) => listed.id)).toEqual([id]);
    expect(next?.etag).not.toBe(first?.etag);
  });

  it('THR-1: only a value naming the page itself answers 304; another key’s tag and forged values get the page', async () => {
    const tag = `etag-hostile-${crypto.randomUUID()}`;
    await createThread({ agent: 'general', tags: [tag] });
    await createThread({ agent: 'general', tags: [tag] }, BOB);
    const mine = await api(`/api/threads?tag=${tag}`);
    const etag = mine.headers.get('etag') ?? '';
    const page = await mine.text();
    for (const { label, header, status } of IF_NONE_MATCH_CASES) {
      const response = await api(`/api/threads?tag=${tag}`, { headers: { 'if-none-match': header(etag) } });
      expect(response.status, label).toBe(status);
      if (status === 200) expect(await response.text(), label).toBe(page);
      if (status === 400)
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
    // Bob's page holds his own thread: Alice's tag does not make it a 304, and he sees only his.
    const bobs = await api(`/api/threads?tag=${tag}`, { key: BOB, headers: { 'if-none-match': etag } });
    expect(bobs.status).toBe(200);
    expect(bobs.headers.get('etag')).not.toBe(etag);
    expect(((await bobs.json()) as Listed).threads).toHaveLength(1);
  });
});

interface OpenWait {
  thread_id: string;
  agent: string;
  tool_call_id: string;
  kind: string;
  name: string;
  payload: unknown;
  payload_omitted: boolean;
  created_at: number;
}

interface WaitPage {
  waits: OpenWait[];
  next_cursor: string | null;
}

async function waitPage(query: string, key = ALICE): Promise<WaitPage> {
  const response = await api(`/api/waits?${query}`, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as WaitPage;
}

/** Every open wait the key sees under `query`, page by page (`limit` a page); checks each page's size. */
async function allWaits(query: string, key = ALICE, limit = 2): Promise<OpenWait[]> {
  const all: OpenWait[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await waitPage(`${query}&limit=${limit}${after}`, key);
    expect(page.waits.length).toBeLessThanOrEqual(limit);
    if (page.next_cursor) expect(page.waits).toHaveLength(limit);
    all.push(...page.waits);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

/** The waits of these threads among what the key sees under `query`, in the order listed. */
async function waitsOf(ids: readonly string[], query = '', key = ALICE): Promise<OpenWait[]> {
  return (await allWaits(query, key)).filter((wait) => ids.includes(wait.thread_id));
}

const QUESTION = { name: 'question', arguments: { questions: [{ question: 'Which colour?' }] } };
const APPROVAL = { name: 'guarded_increment' };

/** A thread of `agent` whose first step makes `call`, once the inbox lists its wait. */
async function waitingOn(
  agent: string,
  call: { name: string; arguments?: Record<string, unknown> },
  key = ALICE,
  shared = false,
): Promise<string> {
  const script = directive([{ toolCalls: [call] }, { text: 'done' }]);
  const id = await createThread({ agent, shared, messages: [{ content: script }] }, key);
  await until(
    () => waitPage(`agent=${agent}&limit=200`, key),
    (page) => page.waits.some((wait) => wait.thread_id === id),
  );
  return id;
}

const byThread = (waits: readonly OpenWait[]) => waits.map((wait) => wait.thread_id);

describe('GET /api/waits', () => {
  it('INBOX-1, INBOX-2, INBOX-3: lists the open waits of several threads and two agents, filtered by kind and agent, in pages, oldest first, only those of threads the key sees', async () => {
    const question = await waitingOn('general', QUESTION);
    const approval = await waitingOn('general', APPROVAL);
    const helperApproval = await waitingOn('background_helper', APPROVAL);
    const helperQuestion = await waitingOn('background_helper', QUESTION);
    const bobsOwn = await waitingOn('general', APPROVAL, BOB);
    const bobsShared = await waitingOn('general', QUESTION, BOB, true);
    const mine = [question, approval, helperApproval, helperQuestion, bobsOwn, bobsShared];

    // Every wait, two a page, the longest waiting first; Bob's own thread is not Alice's to see.
    const everything = await allWaits('');
    const times = everything.map((wait) => wait.created_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(everything.map((wait) => `${wait.thread_id}/${wait.tool_call_id}`)).size).toBe(everything.length);
    const listed = everything.filter((wait) => mine.includes(wait.thread_id));
    expect(byThread(listed)).toEqual([question, approval, helperApproval, helperQuestion, bobsShared]);

    // Each as the thread shows it in waiting_for, with its thread and agent.
    for (const wait of listed) {
      const view = (await (await api(`/api/threads/${wait.thread_id}`)).json()) as { waiting_for: unknown[] };
      const { thread_id: _, agent: __, payload_omitted, ...asShown } = wait;
      expect(view.waiting_for).toEqual([asShown]);
      expect(payload_omitted).toBe(false);
    }
    expect(listed.map((wait) => [wait.agent, wait.kind, wait.name])).toEqual([
      ['general', 'question', 'question'],
      ['general', 'approval', 'guarded_increment'],
      ['background_helper', 'approval', 'guarded_increment'],
      ['background_helper', 'question', 'question'],
      ['general', 'question', 'question'],
    ]);

    // By kind, one or several (repeated or comma-separated), by agent, and both.
    expect(byThread(await waitsOf(mine, 'kind=approval'))).toEqual([approval, helperApproval]);
    for (const both of ['kind=approval&kind=question', 'kind=question,approval']) {
      expect(byThread(await waitsOf(mine, both))).toEqual(byThread(listed));
    }
    expect((await allWaits('kind=approval')).every((wait) => wait.kind === 'approval')).toBe(true);
    expect(byThread(await waitsOf(mine, 'agent=background_helper'))).toEqual([helperApproval, helperQuestion]);
    expect((await allWaits('agent=background_helper')).every((wait) => wait.agent === 'background_helper')).toBe(true);
    expect(byThread(await waitsOf(mine, 'agent=background_helper&kind=question'))).toEqual([helperQuestion]);
    expect(await waitsOf(mine, 'kind=secret')).toEqual([]);
    // The client sends several kinds as a repeated parameter.
    const worker = (exports as unknown as { default: Fetcher }).default;
    const client = createClient({
      baseUrl: 'https://runtime.test',
      apiKey: ALICE,
      fetch: (input, init) => worker.fetch(new Request(input, init)),
    });
    const fromClient = await client.waits.list({
      kind: ['approval', 'question'],
      agent: 'background_helper',
      limit: 200,
    });
    expect(byThread(fromClient.waits.filter((wait) => mine.includes(wait.thread_id)))).toEqual([
      helperApproval,
      helperQuestion,
    ]);

    // Bob sees his own and his shared one, nothing of Alice's.
    expect(byThread(await waitsOf(mine, '', BOB))).toEqual([bobsOwn, bobsShared]);
  });

  it('INBOX-4: a wait answered leaves the list as its thread goes back to work; a deleted thread’s waits go with it', async () => {
    const approval = await waitingOn('general', APPROVAL);
    const question = await waitingOn('general', QUESTION);
    const [wait] = await waitsOf([approval]);
    const answered = await api(`/api/threads/${approval}/approvals`, {
      method: 'POST',
      json: { tool_call_id: wait?.tool_call_id, approved: true },
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    await until(
      () => waitsOf([approval, question]),
      (waits) => !waits.some((listed) => listed.thread_id === approval),
    );
    const log = await settled(approval);
    expect(log.find((message) => message.role === 'tool')?.content).toBe('runs: 1');
    // The thread's row and its waits are written together: once the wait is gone, so is its waiting.
    expect((await list(`status=waiting&limit=200`)).threads.map((listed) => listed.id)).not.toContain(approval);
    expect(byThread(await waitsOf([approval, question]))).toEqual([question]);

    expect((await api(`/api/threads/${question}`, { method: 'DELETE' })).status).toBe(204);
    expect(await waitsOf([approval, question])).toEqual([]);
  });

  it('INBOX-5: an approval too large for the inbox is listed without its payload, and its thread still reads waiting', async () => {
    const id = await waitingOn('asked', { name: 'approve_echo', arguments: OVERSIZED_WAIT_ARGUMENTS });
    const [wait] = await waitsOf([id]);
    expect(wait).toMatchObject({ kind: 'approval', payload: null, payload_omitted: true });
    expect((await list('status=waiting&limit=200')).threads.map((listed) => listed.id)).toContain(id);
    const view = (await (await api(`/api/threads/${id}`)).json()) as { waiting_for: { payload: unknown }[] };
    expect(view.waiting_for[0]?.payload).toMatchObject({ arguments: OVERSIZED_WAIT_ARGUMENTS });
    expect((await api(`/api/threads/${id}/stop`, { method: 'POST' })).status).toBe(200);
  });

  it('INBOX-6: a filter it does not take is refused with 400 and lists nothing', async () => {
    for (const { label, query } of WAIT_LIST_FORGERIES) {
      const response = await api(`/api/waits?${query}`);
      expect(response.status, label).toBe(400);
      const body = (await response.json()) as { error: { code: string }; waits?: unknown };
      expect(body.error.code, label).toBe('invalid_request');
      expect(body.waits, label).toBeUndefined();
    }
    expect((await api('/api/waits', { key: null })).status).toBe(401);
  });
});

describe('a blocking subagent’s call', () => {
  it('SUB-7: lasts as long as the child ran (six model steps), not the moment of its completion', async () => {
    // Each never_returns call ends at its 50 ms timeout (an echo between pairs keeps the doom-loop
    // breaker quiet): the child's six steps take 200 ms at least.
    const slow = { toolCalls: [{ name: 'never_returns' }] };
    const childScript = directive([
      slow,
      slow,
      { toolCalls: [{ name: 'echo', arguments: { text: 'half way' } }] },
      slow,
      slow,
      { text: 'child done' },
    ]);
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'task', arguments: { description: 'slow work', prompt: childScript } }] },
            { text: 'parent done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const result = log.find((message) => message.role === 'tool' && message.name === 'task');
    expect(result?.content).toBe('child done');
    const took = result?.envelope?.metadata.duration_ms ?? 0;

    const childId = ((await (await api(`/api/threads/${id}`)).json()) as { children: { id: string }[] }).children[0]
      ?.id;
    const childLog = await messages(childId ?? '');
    expect(childLog.filter((message) => message.role === 'assistant')).toHaveLength(6);
    const childRan = (childLog.at(-1)?.created_at ?? 0) - (childLog[0]?.created_at ?? 0);
    expect(childRan).toBeGreaterThanOrEqual(200);
    // The call began before the child's first message and ended after its last.
    expect(took).toBeGreaterThanOrEqual(childRan - 50);
    expect(took).toBeLessThan(childRan + 5_000);
    expect((await thread(id)).status).toBe('idle');
  });
});
