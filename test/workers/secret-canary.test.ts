/**
 * The secret canary (EXE-8, VAR-3, seed 000): one thread whose secret variable is a canary, with
 * tools that push it through every channel of the hostile corpus (section secrets), a sub-prompt
 * and a child thread that do the same, a user and a child reporting it. Then every place it could
 * end up is searched for it in every form: the requests the model server received, the frames, the
 * messages at every depth, the thread details, every SQLite row but the sealed variables, every R2
 * object of the thread and its child, and the runtime's log lines. Plus the deferred child (SUB-6)
 * whose copy of the secret waits sealed in the parent.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import {
  SECRET_CHANNELS,
  SECRET_FORMS,
  type SecretChannel,
  secretCanary,
  secretLeaks,
  secretPayload,
} from '../support/hostile-corpus.js';
import { allFrames } from '../support/socket.js';

const call = (channel: SecretChannel) => ({ name: 'canary_channel', arguments: { channel } });

/**
 * Channels the parent's own tools drive in one step. The others need a generator tool, a child, or a
 * turn of their own: a queued user message is answered by the model (it ends the scripted step), an
 * escaped error ends the turn.
 */
const PARENT_STEP = SECRET_CHANNELS.map((entry) => entry.channel).filter(
  (channel) => !['notify_parent', 'escaped_error', 'progress', 'queue_message'].includes(channel),
);

/** Every row of every table of the thread's SQLite but the sealed variables, as text. */
async function storedText(id: string): Promise<string> {
  return runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray()
      .filter(({ name }) => name !== 'variables');
    return tables
      .map(({ name }) => `${name}: ${JSON.stringify(sql.exec(`SELECT * FROM "${name}"`).toArray())}`)
      .join('\n');
  });
}

/** Every R2 object of the thread: keys and bodies. */
async function filesText(id: string): Promise<Map<string, string>> {
  const listed = await env.FILES.list({ prefix: `threads/${id}/` });
  const files = new Map<string, string>();
  for (const object of listed.objects) files.set(object.key, (await (await env.FILES.get(object.key))?.text()) ?? '');
  return files;
}

/** Every string inside a value (keys too) and its JSON: the texts a leak is searched in. */
function texts(value: unknown): string[] {
  const out = [JSON.stringify(value)];
  const walk = (item: unknown) => {
    if (typeof item === 'string') out.push(item);
    else if (Array.isArray(item)) item.forEach(walk);
    else if (item && typeof item === 'object') {
      for (const [key, nested] of Object.entries(item)) {
        out.push(key);
        walk(nested);
      }
    }
  };
  walk(value);
  return out;
}

function leaksIn(value: unknown, secret: string, core: string): string[] {
  return [...new Set(texts(value).flatMap((text) => secretLeaks(text, secret, core)))];
}

let spies: MockInstance[] = [];
afterEach(() => {
  for (const spy of spies) spy.mockRestore();
  spies = [];
});

/** Captures every console line the run writes (the threads run in this isolate). */
function captureLogs(): string[] {
  const logged: string[] = [];
  spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(' '));
    }),
  );
  return logged;
}

describe('the secret canary (EXE-8, VAR-3)', () => {
  it('EXE-8, VAR-3: a canary pushed through every channel is nowhere in plain text: model requests, frames, messages, rows, files, logs', async () => {
    const { secret, core } = secretCanary();
    const payload = secretPayload(secret);
    const marker = `marker-${crypto.randomUUID()}`;
    const logged = captureLogs();

    // A user message at creation, then one posted over HTTP, carry the secret: stored scrubbed.
    const id = await createThread({
      agent: 'canary_parent',
      variables: { CANARY: secret },
      messages: [{ content: `hello ${marker}\n${payload}` }],
    });
    await settled(id);

    const childScript = directive([
      { toolCalls: [call('notify_parent'), call('tool_result'), call('write_file'), call('set_value')] },
      { toolCalls: [{ name: 'canary_finish' }] },
      { text: marker },
    ]);
    const subScript = directive([{ toolCalls: [call('tool_result'), call('tool_error')] }, { text: `sub ${marker}` }]);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [...PARENT_STEP.map(call), { name: 'canary_progress' }] },
          { toolCalls: [{ name: 'canary_sub', arguments: { message: subScript } }] },
          { toolCalls: [{ name: 'canary_child', arguments: { message: childScript } }] },
          { text: `done ${marker}` },
        ]),
      },
    });
    await until(
      () => messages(id),
      (log) => log.some((m) => m.role === 'tool' && m.name === 'canary_child'),
    );
    await settled(id);
    const { children } = (await (await api(`/api/threads/${id}`)).json()) as { children: { id: string }[] };
    expect(children).toHaveLength(1);
    const kid = children[0]?.id as string;
    // The child's session ended by its stop tool (DEF-6): its log ends with that tool's result.
    await until(
      () => thread(kid),
      (child) => child.status === 'idle',
    );

    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [call('queue_message')] }, { text: 'not reached' }]) },
    });
    await settled(id);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: `posted ${payload}` } });
    await settled(id);
    // A child's report reaches the parent through its stub: the parent scrubs it whatever the child did.
    await env.THREADS.get(env.THREADS.idFromName(id)).childMessage(kid, `report ${payload}`);
    await until(
      () => messages(id),
      (log) => log.filter((m) => m.metadata?.from_child === kid).length === 2 && log.at(-1)?.role === 'assistant',
    );
    await settled(id);

    // Last: an error escaping the tool runner fails the turn; its log line, last_error and frame are scrubbed.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [call('escaped_error')] }, { text: 'never' }]) },
    });
    const log = await settled(id);
    const view = await thread(id);
    expect(view.last_error).toContain('[secret]');

    // ---- the channels did run (the search below is not vacuous) ----
    const results = new Map(
      log.filter((m) => m.role === 'tool' && m.depth === 0).map((m) => [m.tool_call_id, m] as const),
    );
    const resultOf = (channel: SecretChannel) =>
      [...results.values()].find((m) => m.name === 'canary_channel' && m.content?.startsWith(`${channel}:`));
    expect([...results.values()].find((m) => m.content?.startsWith('raw: [secret]'))?.tool_status).toBe('success');
    // tool_error and thrown_error in the parent, tool_error in the sub-prompt.
    const scrubbedError = `Error: ${SECRET_FORMS.map((form) => `${form.label}: [secret]`).join('\n')}`;
    expect(log.filter((m) => m.content === scrubbedError).map((m) => m.depth)).toEqual([0, 0, 1]);
    for (const channel of [
      'inject_message',
      'queue_message',
      'emit',
      'write_file',
      'write_bytes',
      'bash_file',
      'set_value',
      'set_context',
    ] as const) {
      expect(resultOf(channel)?.tool_status, channel).toBe('success');
    }
    // Injected (system); created, queued, posted, and reported twice by the child (user).
    expect(log.filter((m) => m.role === 'system' && m.content?.includes('base64: [secret]'))).toHaveLength(1);
    expect(log.filter((m) => m.role === 'user' && m.content?.includes('base64: [secret]'))).toHaveLength(5);
    expect(log.some((m) => m.depth === 1 && m.role === 'tool' && m.content?.includes('base64: [secret]'))).toBe(true);
    const childAnswer = log.find((m) => m.name === 'canary_child');
    expect(childAnswer?.content).toContain('final answer: raw: [secret]');

    // ---- the model never saw it, in any form ----
    const received = (await (
      await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)
    ).json()) as unknown[];
    expect(received.length).toBeGreaterThanOrEqual(8);
    expect(leaksIn(received, secret, core)).toEqual([]);
    for (const fragment of [...SECRET_FORMS.map((form) => form.encode(secret)), core]) {
      const query = encodeURIComponent(fragment);
      expect(await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${query}`)).json()).toEqual([]);
    }
    expect(JSON.stringify(received)).toContain('[secret]');

    // ---- nor is it anywhere the runtime keeps or sends something ----
    for (const threadId of [id, kid]) {
      const frames = await allFrames(threadId);
      expect(leaksIn(frames, secret, core), `frames of ${threadId}`).toEqual([]);
      expect(leaksIn(await messages(threadId), secret, core), `messages of ${threadId}`).toEqual([]);
      const details = await (await api(`/api/threads/${threadId}`)).json();
      expect(leaksIn(details, secret, core), `details of ${threadId}`).toEqual([]);
      expect(secretLeaks(await storedText(threadId), secret, core), `rows of ${threadId}`).toEqual([]);
      const files = await filesText(threadId);
      expect(leaksIn(Object.fromEntries(files), secret, core), `files of ${threadId}`).toEqual([]);
    }
    const frames = await allFrames(id);
    expect(frames.find((frame) => frame.type === 'event')).toMatchObject({
      event: 'canary',
      data: { '[secret]': '[secret]' },
    });
    expect(JSON.stringify(frames.filter((frame) => frame.type === 'tool_progress'))).toContain('base64: [secret]');
    expect(frames.some((frame) => frame.type === 'error' && JSON.stringify(frame).includes('[secret]'))).toBe(true);
    const files = await filesText(id);
    for (const name of ['state.txt', 'bytes.txt', 'bash.txt']) {
      expect(files.get(`threads/${id}/canary/${name}`)?.split('\n').slice(0, 4)).toEqual(
        SECRET_FORMS.map((form) => `${form.label}: [secret]`),
      );
    }
    expect(await storedText(id)).toContain('"key":"user:[secret]"');
    expect([...(await filesText(kid)).keys()]).toContain(`threads/${kid}/canary/state.txt`);

    // ---- and the runtime's log lines are scrubbed ----
    for (const spy of spies) spy.mockRestore();
    spies = [];
    expect(logged.some((line) => line.includes('turn failed') && line.includes('[secret]'))).toBe(true);
    expect(secretLeaks(logged.join('\n'), secret, core)).toEqual([]);
  });

  it('EXE-8: a message queued while the thread waits, and the answer that ends the wait, are stored scrubbed', async () => {
    const { secret, core } = secretCanary();
    const payload = secretPayload(secret);
    const questions = [{ question: 'Which service?' }];
    const id = await createThread({
      agent: 'canary_deferring',
      variables: { CANARY: secret },
      messages: [
        { content: directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'ok' }]) },
      ],
    });
    const waiting = await until(
      () => thread(id),
      (view) => view.status === 'waiting',
    );
    expect(waiting.status).toBe('waiting');
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: `queued ${payload}` } });
    expect(await posted.json()).toMatchObject({ queued: true });
    const queued = await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), (_instance, state) =>
      state.storage.sql.exec<{ body: string }>('SELECT body FROM queue').toArray(),
    );
    expect(queued).toHaveLength(1);
    expect(queued[0]?.body).toContain('base64: [secret]');
    expect(secretLeaks(await storedText(id), secret, core)).toEqual([]);

    const { waiting_for } = (await (await api(`/api/threads/${id}`)).json()) as {
      waiting_for: { tool_call_id: string }[];
    };
    const answered = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: waiting_for[0]?.tool_call_id, answers: [[payload]] },
    });
    expect(answered.status).toBe(200);
    const log = await settled(id);
    expect(log.find((m) => m.name === 'question')?.content).toContain('base64: [secret]');
    expect(log.filter((m) => m.role === 'user').map((m) => m.content)).toContain(
      `queued ${SECRET_FORMS.map((form) => `${form.label}: [secret]`).join('\n')}`,
    );
    expect(secretLeaks(await storedText(id), secret, core)).toEqual([]);
  });

  it('VAR-3, SUB-6: a deferred child keeps its copy of a secret sealed in the parent; booting refuses a short secret, then opens it', async () => {
    const { secret, core } = secretCanary();
    const id = await createThread({
      agent: 'canary_deferring',
      variables: { CANARY: secret },
      messages: [{ content: directive([{ toolCalls: [{ name: 'canary_defer' }] }, { text: 'deferred' }]) }],
    });
    const log = await settled(id);
    const failure = JSON.parse((log.find((m) => m.role === 'tool')?.content ?? '').replace(/^Error: /, '')) as {
      error: string;
      endpoint: string;
      missing: string[];
    };
    expect(failure).toMatchObject({ error: 'subagent_env_required', missing: ['EXTRA_KEY'] });
    const stored = await storedText(id);
    expect(stored).toContain('deferred-child:');
    expect(secretLeaks(stored, secret, core)).toEqual([]);

    const short = await api(failure.endpoint, { method: 'POST', json: { variables: { EXTRA_KEY: 'short' } } });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({
      error: { code: 'secret_too_short', message: expect.stringContaining('"EXTRA_KEY"') },
    });
    expect((await api(failure.endpoint)).status).toBe(200);

    const booted = await api(failure.endpoint, {
      method: 'POST',
      json: { variables: { EXTRA_KEY: 'extra-key-long-enough' } },
    });
    expect(booted.status).toBe(200);
    const { child_id } = (await booted.json()) as { child_id: string };
    const childLog: Message[] = await settled(child_id);
    // The child got the copy back from the sealed request, and holds it as a secret (VAR-3).
    expect(childLog.find((m) => m.role === 'tool')?.content).toBe(
      JSON.stringify({ copy: secret.length, extra: 'extra-key-long-enough'.length }),
    );
    const sealed = await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(child_id)), (_instance, state) =>
      state.storage.sql
        .exec<{ name: string; secret: number }>('SELECT name, secret FROM variables ORDER BY name')
        .toArray(),
    );
    expect(sealed).toEqual(
      expect.arrayContaining([
        { name: 'CANARY_COPY', secret: 1 },
        { name: 'EXTRA_KEY', secret: 1 },
      ]),
    );
    expect(secretLeaks(await storedText(child_id), secret, core)).toEqual([]);
    expect(await storedText(id)).not.toContain('deferred-child:');
  });
});
