/**
 * Waits on other threads (WAIT-1), `task` in the background (TASK-1) and scoped values down a
 * subtree (SCOPE-1), through the HTTP API with scripted models, as a model calls the tools.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { SCOPED_VALUE_OUTSIDERS, WAIT_CAP_FORGERIES } from '../support/hostile-corpus.js';
import { holdKey } from './subagent-waits-app.js';

interface Details {
  status: string;
  parent_id: string | null;
  children: { id: string; status?: string }[];
}

async function details(id: string, key?: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`, key ? { key } : {})).json()) as Details;
}

const toolResults = (log: readonly Message[]) => log.filter((m) => m.role === 'tool' && m.depth === 0);
const fromChildren = (log: readonly Message[]) =>
  log.filter((m) => m.role === 'user' && typeof m.metadata?.from_child === 'string');

/** Held workers are released at the end, whatever happened, so no child polls on after the file. */
const held = new Set<string>();
function heldScript(text: string): { label: string; script: string } {
  const label = crypto.randomUUID();
  held.add(label);
  const script = directive([{ toolCalls: [{ name: 'hold_until_released', arguments: { label } }] }, { text }]);
  return { label, script };
}
async function release(label: string): Promise<void> {
  await env.FILES.put(holdKey(label), 'go');
}
afterAll(async () => {
  await Promise.all([...held].map(release));
});

/** The only child of `id`, once started. */
async function onlyChild(id: string): Promise<string> {
  const view = await until(
    () => details(id),
    (value) => value.children.length === 1,
  );
  return view.children[0]?.id ?? '';
}

describe('waits on other threads are capped (WAIT-1)', () => {
  it('WAIT-1: a task wait ends at its cap even when the parent is evicted while waiting; the child runs on and its answer arrives as a message', async () => {
    const { label, script } = heldScript('held child finished');
    const id = await createThread({
      agent: 'waiting_lead',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                {
                  name: 'task',
                  arguments: { description: 'held work', prompt: script, agent: 'held_worker', timeoutSeconds: 1 },
                },
              ],
            },
            { text: 'parent moved on' },
          ]),
        },
      ],
    });
    const childId = await onlyChild(id);
    // The parent's turn has ended waiting; it is evicted, so only its stored wait and alarm remain.
    await until(
      () => thread(id),
      (view) => view.status !== 'running',
    );
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    const log = await until(
      () => messages(id),
      (list) => list.at(-1)?.content === 'parent moved on',
    );
    const [result] = toolResults(log);
    expect(result).toMatchObject({ name: 'task', tool_status: 'error' });
    expect(result?.content).toContain(`subagent thread ${childId} is still running`);
    // Nothing was stopped: the child is still at work and reachable.
    expect((await details(childId)).status).toBe('running');
    await release(label);
    const after = await until(
      () => messages(id),
      (list) => fromChildren(list).length === 1 && list.at(-1)?.role === 'assistant',
    );
    expect(fromChildren(after)[0]?.content).toContain(`Subagent thread ${childId}`);
    expect(fromChildren(after)[0]?.content).toContain('held child finished');
    // The late answer did not rewrite the call's result.
    expect(toolResults(after)).toEqual([result]);
  });

  it('WAIT-1: a blocking agent tool waits no longer than its waitTimeout; the error names the child', async () => {
    const { label, script } = heldScript('agent tool child finished');
    const id = await createThread({
      agent: 'waiting_lead',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'held_worker', arguments: { message: script } }] },
            { text: 'lead moved on' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const childId = await onlyChild(id);
    expect(toolResults(log)[0]?.content).toContain(`subagent thread ${childId} is still running`);
    expect(log.at(-1)?.content).toBe('lead moved on');
    expect((await details(childId)).status).toBe('running');
    await release(label);
    const after = await until(
      () => messages(id),
      (list) => fromChildren(list).length === 1 && list.at(-1)?.role === 'assistant',
    );
    expect(fromChildren(after)[0]?.content).toContain('agent tool child finished');
  });

  it('WAIT-1: a cap past the ten-minute ceiling, or no cap at all, is refused before any child starts', async () => {
    const calls = WAIT_CAP_FORGERIES.map(({ value }) => ({
      name: 'task',
      arguments: { description: 'forged cap', prompt: 'x', agent: 'held_worker', timeoutSeconds: value },
    }));
    const id = await createThread({
      agent: 'waiting_lead',
      messages: [{ content: directive([{ toolCalls: calls }, { text: 'all refused' }]) }],
    });
    const log = await settled(id);
    const results = toolResults(log);
    expect(results).toHaveLength(WAIT_CAP_FORGERIES.length);
    for (const [index, { label }] of WAIT_CAP_FORGERIES.entries()) {
      expect(results[index], label).toMatchObject({ tool_status: 'error' });
      expect(results[index]?.content, label).toContain('timeoutSeconds');
    }
    expect(log.at(-1)?.content).toBe('all refused');
    expect((await details(id)).children).toEqual([]);
  });
});

describe('task in the background (TASK-1)', () => {
  it('TASK-1: task with background answers at once with the child id; the final answer arrives later as a message', async () => {
    const { label, script } = heldScript('background answer');
    const id = await createThread({
      agent: 'waiting_lead',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                {
                  name: 'task',
                  arguments: { description: 'bg work', prompt: script, agent: 'held_worker', background: true },
                },
              ],
            },
            { text: 'started in the background' },
          ]),
        },
      ],
    });
    // The turn ends while the child is still held: the call did not wait for it.
    const log = await settled(id);
    const childId = await onlyChild(id);
    expect(toolResults(log)[0]).toMatchObject({ name: 'task', tool_status: 'success' });
    expect(toolResults(log)[0]?.content).toContain(childId);
    expect(log.at(-1)?.content).toBe('started in the background');
    expect((await details(childId)).status).toBe('running');
    await release(label);
    const after = await until(
      () => messages(id),
      (list) => fromChildren(list).length === 1 && list.at(-1)?.role === 'assistant',
    );
    expect(fromChildren(after)[0]?.content).toContain('background answer');
    expect(fromChildren(after)[0]?.metadata?.from_child).toBe(childId);
  });
});

describe('scoped values flow down the whole subtree (SCOPE-1)', () => {
  const show = directive([{ toolCalls: [{ name: 'show_relay_token' }] }, { text: 'shown' }]);
  const relay = (prompt: string, text: string) =>
    directive([
      { toolCalls: [{ name: 'task', arguments: { description: 'relay', prompt, agent: 'scope_relay' } }] },
      { text },
    ]);

  it('SCOPE-1: a scoped secret given to a thread reaches every descendant through agents that each declare it, and no stored message shows it', async () => {
    const canary = `relay-${crypto.randomUUID()}`;
    const root = await createThread({
      agent: 'scope_relay',
      variables: { RELAY_TOKEN: canary },
      messages: [{ content: relay(relay(show, 'child relayed'), 'root relayed') }],
    });
    const rootLog = await settled(root);
    expect(rootLog.at(-1)?.content).toBe('root relayed');
    const child = await onlyChild(root);
    const grandchild = await onlyChild(child);
    const grandLog = await settled(grandchild);
    expect(toolResults(grandLog)[0]?.content).toBe(`RELAY_TOKEN present (${canary.length} chars)`);
    const childLog = await messages(child);
    expect(toolResults(childLog)[0]?.content).toBe('shown');
    for (const log of [rootLog, childLog, grandLog]) expect(JSON.stringify(log)).not.toContain(canary);
  });

  it('SCOPE-1: a scoped value does not leak outside its subtree: not to other roots, not to another key, not from a plain value above', async () => {
    const canary = `relay-${crypto.randomUUID()}`;
    const owner = await createThread({
      agent: 'scope_relay',
      variables: { RELAY_TOKEN: canary },
      messages: [{ content: show }],
    });
    expect(toolResults(await settled(owner))[0]?.content).toBe(`RELAY_TOKEN present (${canary.length} chars)`);
    for (const outsider of SCOPED_VALUE_OUTSIDERS) {
      const key = outsider.key === 'bob' ? BOB : ALICE;
      const chain = outsider.depth === 2 ? relay(relay(show, 'done'), 'done') : relay(show, 'done');
      const root = await createThread(
        {
          agent: outsider.holder,
          ...(outsider.holdsValue ? { variables: { RELAY_TOKEN: canary } } : {}),
          messages: [{ content: chain }],
        },
        key,
      );
      let looking = root;
      for (let level = 0; level < outsider.depth; level++) {
        await settled(looking, key);
        looking = (await details(looking, key)).children[0]?.id ?? '';
      }
      expect(toolResults(await settled(looking, key))[0]?.content, outsider.label).toBe('RELAY_TOKEN absent');
    }
    // Another key cannot read the owner's thread at all.
    expect((await api(`/api/threads/${owner}/messages`, { key: BOB })).status).toBe(404);
  });
});
