/**
 * The thread index's outbox, through the Worker's HTTP API, with the index's D1 writes switched by
 * the test (index-outbox-app.ts): a thread is answered 201 whatever D1 does, and read at once; its
 * row and its statuses reach the listing once D1 accepts them, from the thread's alarm, even after
 * the instance that made them was evicted; a refusal for good marks the thread and is not tried
 * again. Held writes are promises the test releases: nothing depends on timing.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, createThread, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { indexSwitch, LASTING_REFUSAL, PROBE_AGENT } from './index-outbox-app.js';

interface Listed {
  threads: { id: string; status: string }[];
}

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

async function listed(tag: string): Promise<Listed['threads']> {
  const response = await api(`/api/threads?tag=${tag}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Listed).threads;
}

/** Waits until every index write the object started has finished. */
async function indexSettled(id: string): Promise<void> {
  await runInDurableObject(stubFor(id), async (instance: unknown) => {
    await (instance as { indexWrites: { settled(): Promise<void> } }).indexWrites.settled();
  });
}

/** A thread created while D1 holds its index write: its id, once the write is held. */
async function createdWithWriteHeld(tag: string): Promise<string> {
  indexSwitch.set('hold');
  const id = await createThread({ agent: PROBE_AGENT, tags: [tag] });
  await until(
    async () => indexSwitch.held(),
    (count) => count === 1,
  );
  return id;
}

async function alarmAt(id: string): Promise<number | null> {
  return runInDurableObject(stubFor(id), (_instance: unknown, state: DurableObjectState) => state.storage.getAlarm());
}

const tagged = () => `outbox-${crypto.randomUUID()}`;

/** Lets the held index writes of the thread's object go on, from inside that object. */
async function release(id: string): Promise<void> {
  await runInDurableObject(stubFor(id), () => indexSwitch.release());
}

afterEach(() => {
  indexSwitch.reset();
  vi.restoreAllMocks();
});

describe('the thread index outbox', () => {
  it('THR-10: D1 refusing: 201 at once, the thread reads at once, the listing catches up from the alarm once D1 accepts', async () => {
    indexSwitch.set('refuse');
    const tag = tagged();
    const id = await createThread({ agent: PROBE_AGENT, tags: [tag] });
    const view = (await (await api(`/api/threads/${id}`)).json()) as { status: string; index_error: unknown };
    expect(view).toMatchObject({ status: 'idle', index_error: null });
    await until(
      async () => indexSwitch.attempts(),
      (count) => count >= 1,
    );
    await indexSettled(id);
    expect(await listed(tag)).toEqual([]);
    // The failed send left the alarm for the next try.
    expect(await alarmAt(id)).not.toBeNull();

    indexSwitch.set('accept');
    // Run now; had the alarm come by itself meanwhile, it would have sent the row just the same.
    await runDurableObjectAlarm(stubFor(id));
    const rows = await until(
      () => listed(tag),
      (threads) => threads.length === 1,
    );
    expect(rows[0]).toMatchObject({ id, status: 'idle' });
    expect((await thread(id)) as unknown).toMatchObject({ index_error: null });
  });

  it('THR-10: a thread created with a message to answer is indexed in one write carrying its turn, then its end', async () => {
    const tag = tagged();
    const messages = [{ role: 'user', content: directive([{ text: 'hello' }]) }];
    const id = await createThread({ agent: PROBE_AGENT, tags: [tag], messages });
    await until(
      () => thread(id),
      (view) => view.status === 'idle' && view.message_count >= 2,
    );
    await indexSettled(id);
    // Not the row as created (idle), then `running`, then `idle`: the row goes with the turn's start.
    expect(indexSwitch.accepted()).toEqual(['running', 'idle']);
    expect((await listed(tag)).map((row) => [row.id, row.status])).toEqual([[id, 'idle']]);
  });

  it('THR-10: D1 slow: 201 before D1 answers; the row is listed once D1 does', async () => {
    const tag = tagged();
    // Answered while the index write cannot have finished: it waits for the test.
    const id = await createdWithWriteHeld(tag);
    expect(await listed(tag)).toEqual([]);
    expect((await api(`/api/threads/${id}`)).status).toBe(200);
    await release(id);
    await until(
      () => listed(tag),
      (threads) => threads.some((row) => row.id === id),
    );
  });

  it('THR-10: an instance evicted between the 201 and the index write: the alarm writes it', async () => {
    const tag = tagged();
    const id = await createdWithWriteHeld(tag);
    await evictDurableObject(stubFor(id));
    indexSwitch.set('accept');
    expect(await listed(tag)).toEqual([]);
    // The creation armed the alarm before its first send: it is there for the new instance.
    expect(await alarmAt(id)).not.toBeNull();
    await runDurableObjectAlarm(stubFor(id));
    await until(
      () => listed(tag),
      (threads) => threads.some((row) => row.id === id && row.status === 'idle'),
    );
  });

  it('THR-10: a send accepted and not yet written down, then an eviction: the last status goes once more, the index unchanged', async () => {
    const tag = tagged();
    const id = await createThread({ agent: PROBE_AGENT, tags: [tag] });
    await until(
      () => listed(tag),
      (threads) => threads.some((row) => row.id === id && row.status === 'idle'),
    );
    await indexSettled(id);
    const before = indexSwitch.accepted().length;
    await evictDurableObject(stubFor(id));
    // The alarm the creation armed may have run already: one is set, as any later reason would.
    await runInDurableObject(stubFor(id), (_instance: unknown, state: DurableObjectState) =>
      state.storage.setAlarm(Date.now() + 60_000),
    );
    expect(await runDurableObjectAlarm(stubFor(id))).toBe(true);
    await indexSettled(id);
    // The new instance did not know the send went through: it sent the same status again.
    expect(indexSwitch.accepted().slice(before)).toEqual(['idle']);
    expect((await listed(tag)).map((row) => [row.id, row.status])).toEqual([[id, 'idle']]);
    const left = await runInDurableObject(stubFor(id), async (instance: unknown) =>
      (instance as { indexWrites: { outbox: { pending(): unknown } } }).indexWrites.outbox.pending(),
    );
    expect(left).toBeNull();
  });

  it('THR-11: a refusal for good marks the thread, is logged, and is not tried again; a later change tries once more', async () => {
    const logged = vi.spyOn(console, 'error');
    indexSwitch.set('refuse_for_good');
    const tag = tagged();
    const id = await createThread({ agent: PROBE_AGENT, tags: [tag] });
    const marked = await until(
      () => thread(id) as Promise<unknown> as Promise<{ index_error: string | null }>,
      (view) => view.index_error !== null,
    );
    expect(marked.index_error).toContain('SQLITE_CONSTRAINT');
    expect(logged.mock.calls.flat().join('\n')).toContain(`thread index refused thread ${id} for good`);
    expect(indexSwitch.attempts()).toBe(1);
    // The creation's alarm comes and goes without another try, and leaves no alarm behind.
    await runDurableObjectAlarm(stubFor(id));
    await indexSettled(id);
    expect(indexSwitch.attempts()).toBe(1);
    expect(await alarmAt(id)).toBeNull();
    expect(await listed(tag)).toEqual([]);
    expect(LASTING_REFUSAL).toContain('SQLITE_CONSTRAINT');

    // Once D1 takes the row again, the thread's next status change brings it in and clears the mark.
    indexSwitch.set('accept');
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'hello' } });
    expect(posted.status).toBeLessThan(300);
    await until(
      () => listed(tag),
      (threads) => threads.some((row) => row.id === id && row.status === 'idle'),
    );
    await until(
      () => thread(id) as Promise<unknown> as Promise<{ index_error: string | null; status: string }>,
      (view) => view.index_error === null && view.status === 'idle',
    );
  });

  it('THR-10: status changes D1 refused are delivered once it accepts, the newest only', async () => {
    const tag = tagged();
    const id = await createThread({ agent: PROBE_AGENT, tags: [tag] });
    await until(
      () => listed(tag),
      (threads) => threads.some((row) => row.id === id && row.status === 'idle'),
    );
    indexSwitch.set('refuse');
    const script = directive([
      { toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Which?' }] } }] },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    await until(
      () => thread(id),
      (view) => view.status === 'waiting',
    );
    await indexSettled(id);
    // Refused: the listing still says what it said before the turn.
    expect((await listed(tag)).map((row) => row.status)).toEqual(['idle']);
    expect(indexSwitch.attempts()).toBeGreaterThanOrEqual(1);
    const before = indexSwitch.accepted().length;

    indexSwitch.set('accept');
    await runDurableObjectAlarm(stubFor(id));
    await until(
      () => listed(tag),
      (threads) => threads[0]?.status === 'waiting',
    );
    const waiting = (await (await api(`/api/threads?tag=${tag}&status=waiting`)).json()) as Listed;
    expect(waiting.threads.map((row) => row.id)).toEqual([id]);
    // The first send carried the newest status: `running`, refused and superseded, was never sent.
    // (The alarm's own run of the waiting thread may send `waiting` again after it.)
    await indexSettled(id);
    expect(indexSwitch.accepted().slice(before)[0]).toBe('waiting');
    // Nothing is left to send.
    const left = await runInDurableObject(stubFor(id), async (instance: unknown) =>
      (instance as { indexWrites: { outbox: { pending(): unknown } } }).indexWrites.outbox.pending(),
    );
    expect(left).toBeNull();
  });
});
