/**
 * The thread list as a page keeps it live, through the Worker's HTTP API: `?status=waiting` lists the
 * threads that wait on a person (and nobody else's, and not a thread waiting only for its subagent);
 * every page has an ETag and answers 304 while it is unchanged, whatever `If-None-Match` is sent; and
 * a blocking subagent's call lasts as long as the subagent ran, not the millisecond of its completion.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { IF_NONE_MATCH_CASES, LIST_STATUS_FORGERIES } from '../support/hostile-corpus.js';

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
