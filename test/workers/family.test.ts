/**
 * The state's resources, variables and family through HTTP in workerd (TS-40 to TS-56), with the
 * scripted model and the agents of test/workers/family-app.ts: a parent reads and acts on its child
 * through `getChildThread` under the child's rules; a child reads its parent through
 * `getParentThread` and may not change it; nothing outside the family is reached, at the tool or at
 * the object; `setEnv` makes a secret known to the thread and hidden from everything at once, and
 * passes values to the children.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { FORGED_FAMILY_CALLS, HOSTILE_ENV_NAMES } from '../support/hostile-corpus.js';
import { allFrames } from '../support/socket.js';

type Replies = Parameters<typeof directive>[0];

interface Details {
  owner: string;
  children: { id: string; status?: string }[];
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

/** Posts a script to the thread and waits for the turn it starts to end. */
async function send(id: string, replies: Replies): Promise<Message[]> {
  const before = (await messages(id)).length;
  const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive(replies) } });
  expect(posted.status).toBeLessThan(300);
  const [, log] = await until(
    () => Promise.all([thread(id), messages(id)]),
    ([view, log]) => {
      const last = log.at(-1);
      return log.length > before + 1 && view.status !== 'running' && last?.role === 'assistant' && !last.tool_calls;
    },
  );
  return log;
}

/** The result of the last call of `tool` in the log, parsed. */
function resultOf(log: readonly Message[], tool: string): Record<string, unknown> {
  const message = [...log].reverse().find((m) => m.role === 'tool' && m.name === tool);
  if (!message) throw new Error(`no result of ${tool} in ${JSON.stringify(log.map((m) => [m.role, m.content]))}`);
  return JSON.parse(message.content ?? 'null') as Record<string, unknown>;
}

/** A parent thread with one child that ran `childScript` to its end. */
async function family(childScript: Replies): Promise<{ parent: string; child: string; childLog: Message[] }> {
  const parent = await createThread({
    agent: 'family_parent',
    messages: [
      {
        content: directive([
          { toolCalls: [{ name: 'family_spawn', arguments: { message: directive(childScript) } }] },
          { text: 'spawned' },
        ]),
      },
    ],
  });
  await settled(parent);
  const view = await until(
    () => details(parent),
    (current) => current.children.length === 1 && current.children[0]?.status === 'idle',
  );
  const child = view.children[0]?.id ?? '';
  return { parent, child, childLog: await settled(child) };
}

describe('ThreadState resources, variables and the thread hierarchy', () => {
  it("TS-48, TS-50, TS-51, TS-53, TS-40: a parent reads and acts on its child through getChildThread, under the child's rules", async () => {
    const { parent, child } = await family([{ text: 'child ready' }]);
    const log = await send(parent, [{ toolCalls: [{ name: 'family_inspect', arguments: {} }] }, { text: 'inspected' }]);
    const seen = resultOf(log, 'family_inspect');
    expect(seen.entry).toMatchObject({
      reference: child,
      name: 'family_child',
      description: 'Helps its parent',
      resumable: false,
      blocking: false,
    });
    const entry = seen.entry as { createdAt: number; status: string };
    // µs: a thousand times the ms the thread index shows.
    expect(entry.createdAt).toBeGreaterThan(Date.now() * 100);
    expect(typeof entry.status).toBe('string');
    expect(seen.child).toEqual({ threadId: child, agentId: 'family_child', execution: null });
    expect(seen.childMessages).toBeGreaterThan(1);
    expect(seen).toMatchObject({ wrote: 'done', note: 'hello child', childValue: 'set by the parent' });
    expect(seen).toMatchObject({ loaded: 'family_child', names: true });
    // The child's own rule refuses the write, though the parent's rules allow everything.
    expect(seen.locked).toMatch(/Denied by/);
    expect(seen.env).toMatch(/env is not available on the child thread's state/);
    expect(seen.invoke).toMatch(/invokeTool is not available/);
    expect(seen.grandchild).toMatch(/reach your family from your own state/);
    // What the parent wrote is the child's; what the rule refused is nowhere.
    expect(await (await api(`/api/threads/${child}/files/from-parent/note.txt`)).text()).toBe('hello child');
    expect((await api(`/api/threads/${child}/files/locked/x.txt`)).status).toBe(404);
  });

  it('TS-52, TS-51: a child reads its parent through getParentThread and may change nothing of it', async () => {
    const { parent, childLog } = await family([
      { toolCalls: [{ name: 'family_read_parent', arguments: {} }] },
      { text: 'read my parent' },
    ]);
    const seen = resultOf(childLog, 'family_read_parent');
    expect(seen.parent).toEqual({ threadId: parent, agentId: 'family_parent', execution: null });
    expect(seen).toMatchObject({ plan: 'the family plan', children: 1, models: true });
    expect(seen.messages).toBeGreaterThan(0);
    for (const act of ['writeFile', 'setValue', 'setEnv', 'inject']) {
      expect(seen[act], act).toMatch(/not available on the parent thread's state: a child may read its parent/);
    }
    expect(seen.env).toMatch(/env is not available/);
    expect(seen.fetch).toMatch(/use your own state\.fetch/);
    expect(seen.spawn).toMatch(/starts children only from its own state/);
    // Nothing of the parent changed: no file, no message from the child, its value as it was.
    expect((await api(`/api/threads/${parent}/files/from-child.txt`)).status).toBe(404);
    expect((await messages(parent)).some((m) => m.content === 'from the child')).toBe(false);
    const log = await send(parent, [{ toolCalls: [{ name: 'family_inspect', arguments: {} }] }, { text: 'ok' }]);
    expect(resultOf(log, 'family_inspect').wrote).toBe('done');
  });

  it('TS-54: getChildThread of a thread that is not its child is null, even one of the same owner', async () => {
    const { parent } = await family([{ text: 'child ready' }]);
    const other = await createThread({ agent: 'family_parent', messages: [{ content: 'hello' }] });
    await settled(other);
    const log = await send(parent, [
      { toolCalls: [{ name: 'family_outsider', arguments: { id: other } }] },
      { text: 'tried' },
    ]);
    expect(resultOf(log, 'family_outsider')).toEqual({ state: null });
    // The outsider's own child list and log are untouched.
    expect((await details(other)).children).toEqual([]);
  });

  it('TS-55: the object refuses a family call from a thread that is not family, or from another tenant, and nothing changes', async () => {
    const { parent, child } = await family([{ text: 'child ready' }]);
    const { owner } = await details(child);
    const stub = env.THREADS.get(env.THREADS.idFromName(child));
    const member = { tenant: 'default', subject: owner, role: 'member' as const, via: 'thread' as const };
    const ids = { stranger: crypto.randomUUID(), parent, child };
    const principals = {
      'other-tenant': { ...member, tenant: 'other-tenant' },
      'other-subject': { ...member, subject: 'someone-else' },
    };
    for (const forged of FORGED_FAMILY_CALLS) {
      const who = forged.principal ? principals[forged.principal] : member;
      const call = { from: ids[forged.from], relation: forged.relation, method: 'setValue', args: ['note', 'forged'] };
      expect(await stub.familyCall(who, child, call), forged.label).toMatchObject({
        ok: false,
        error: { status: 404 },
      });
    }
    // A child calling its parent may not write: 403, whoever it claims to be.
    const upward = await env.THREADS.get(env.THREADS.idFromName(parent)).familyCall(member, parent, {
      from: child,
      relation: 'child',
      method: 'setValue',
      args: ['plan', 'forged'],
    });
    expect(upward).toMatchObject({ ok: false, error: { status: 403 } });
    const read = await stub.familyCall(member, child, {
      from: parent,
      relation: 'parent',
      method: 'getValue',
      args: ['note'],
    });
    // The child's value was never written (null or undefined, as getValue answers a missing key).
    expect(read).toMatchObject({ ok: true });
    expect((read as unknown as { value: { value: unknown } }).value.value ?? null).toBeNull();
  });

  it('TS-44, TS-45, TS-47: setEnv stores a new secret: env, tenvs and envType see it at once, and nothing shows it afterwards', async () => {
    const secret = 'sk-live-4f9a8b7c6d5e3a2b';
    const id = await createThread({
      agent: 'family_parent',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'family_set_env', arguments: { name: 'API_TOKEN', head: 'sk-live-', tail: secret.slice(8) } },
              ],
            },
            { text: 'stored' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const result = resultOf(log, 'family_set_env');
    expect(result).toMatchObject({ set: 'done', env: true, tenvs: true, type: 'secret', echo: '[secret]' });
    const later = await send(id, [
      { toolCalls: [{ name: 'family_read_env', arguments: { name: 'API_TOKEN' } }] },
      { text: 'read' },
    ]);
    expect(resultOf(later, 'family_read_env')).toMatchObject({ value: '[secret]', type: 'secret' });
    // Not in the log, the stream, the file or anything else the thread shows.
    expect(JSON.stringify(later)).not.toContain(secret);
    expect(JSON.stringify(await allFrames(id))).not.toContain(secret);
    expect(await (await api(`/api/threads/${id}/files/echo/env.txt`)).text()).toBe('[secret]');
  });

  it('TS-44: setEnv refuses a name that is not one, a new short value as a secret (saying how to store text), and a secret turned text', async () => {
    const id = await createThread({
      agent: 'family_parent',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'family_set_env', arguments: { name: 'API_TOKEN', head: 'sk-live-', tail: 'abcdefghijk' } },
              ],
            },
            {
              toolCalls: [
                { name: 'family_set_env', arguments: { name: 'MODE', head: 'fa', tail: 'st' } },
                {
                  name: 'family_set_env',
                  arguments: { name: 'API_TOKEN', head: 'plain-', tail: 'text', type: 'text' },
                },
              ],
            },
            { text: 'done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const answers = log.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? '{}').set as string);
    expect(answers[0]).toBe('done');
    expect(answers[1]).toMatch(/shorter than .* characters.*\{ type: 'text' \}/);
    expect(answers[2]).toMatch(/API_TOKEN holds a secret, and a secret cannot become text/);
    const hostile = await send(id, [
      {
        toolCalls: HOSTILE_ENV_NAMES.map((name) => ({
          name: 'family_set_env',
          arguments: { name, head: 'val', tail: 'ue', type: 'text' },
        })),
      },
      { text: 'tried' },
    ]);
    const refusals = hostile.filter((m) => m.role === 'tool').slice(-HOSTILE_ENV_NAMES.length);
    for (const message of refusals) expect(JSON.parse(message.content ?? '{}').set).toMatch(/is not a variable name/);
    // Nothing was stored: neither the refused names nor the short secret; the first secret is intact.
    const after = await send(id, [
      {
        toolCalls: ['MODE', '__proto__', 'toString', 'API_TOKEN'].map((name) => ({
          name: 'family_read_env',
          arguments: { name },
        })),
      },
      { text: 'read' },
    ]);
    const reads = after.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? '{}'));
    const byName = new Map(reads.map((read) => [read.name, read]));
    for (const name of ['MODE', '__proto__', 'toString']) expect(byName.get(name)?.value).toMatch(/unknown variable/);
    expect(byName.get('API_TOKEN')).toMatchObject({ value: '[secret]', type: 'secret' });
  });

  it('TS-46: setEnv passes a value to the children, which read it as their own', async () => {
    const { parent, child } = await family([{ text: 'child ready' }]);
    const log = await send(parent, [
      {
        toolCalls: [
          { name: 'family_set_env', arguments: { name: 'SHARED_MODE', head: 'fa', tail: 'st', type: 'text' } },
        ],
      },
      { text: 'set' },
    ]);
    expect(resultOf(log, 'family_set_env')).toMatchObject({ set: 'done', type: 'text', echo: 'fast' });
    const childLog = await send(child, [
      { toolCalls: [{ name: 'family_read_env', arguments: { name: 'SHARED_MODE' } }] },
      { text: 'read' },
    ]);
    expect(resultOf(childLog, 'family_read_env')).toMatchObject({ value: 'fast', type: 'text' });
  });

  it('TS-40, TS-44, TS-47: a thread endpoint loads definitions and stores a secret, hidden from the thread from then on', async () => {
    const id = await createThread({ agent: 'family_parent', messages: [{ content: 'hello' }] });
    await settled(id);
    const secret = 'tok-endpoint-7d1e5c9a';
    const response = await api(`/api/threads/${id}/family/env`, {
      method: 'POST',
      json: { name: 'ENDPOINT_TOKEN', value: secret },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ agent: 'family_parent', models: true, type: 'secret', seen: true });
    // The thread's own tools see it too, hidden.
    const log = await send(id, [
      { toolCalls: [{ name: 'family_read_env', arguments: { name: 'ENDPOINT_TOKEN' } }] },
      { text: 'read' },
    ]);
    expect(resultOf(log, 'family_read_env')).toMatchObject({ value: '[secret]', type: 'secret' });
    expect(JSON.stringify(log)).not.toContain(secret);
  });

  it("TS-12, TS-49: a child's setStatus shows in its parent's children after the child's turn ends; an empty one is refused", async () => {
    const { parent, childLog } = await family([
      { toolCalls: [{ name: 'family_set_status', arguments: { status: '' } }] },
      { toolCalls: [{ name: 'family_set_status', arguments: { status: 'reviewing' } }] },
      { text: 'status set' },
    ]);
    const results = childLog.filter((m) => m.role === 'tool' && m.name === 'family_set_status');
    expect(results.map((m) => m.tool_status)).toEqual(['error', 'success']);
    const log = await send(parent, [{ toolCalls: [{ name: 'family_inspect', arguments: {} }] }, { text: 'inspected' }]);
    expect(resultOf(log, 'family_inspect').entry).toMatchObject({ name: 'family_child', status: 'reviewing' });
  });
});
