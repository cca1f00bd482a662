/**
 * store_secret over HTTP (VAR-5, seed 002 "Credential auto-heal"): a tool fails with a 401, the model
 * asks for the credential, the human posts it to `/secrets`, the model retries and succeeds; the
 * value is then searched for everywhere it must never be in plain text (the canary technique of
 * secrets.test.ts).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: unknown }[];
}

const STORE = { name: 'store_secret', arguments: { name: 'SEC_API_KEY', reason: 'The service answered 401' } };
const CALL = { name: 'sec_call_service' };

/** Waits until the thread waits for a call of `kind` (a second wait: not the one already answered). */
async function waitingFor(id: string, kind: string, except: readonly string[] = []) {
  const wanted = (wait: Waiting['waiting_for'][number]) => wait.kind === kind && !except.includes(wait.tool_call_id);
  const view = await until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (candidate) => candidate.status === 'waiting' && candidate.waiting_for.some(wanted),
  );
  return view.waiting_for.find(wanted) as Waiting['waiting_for'][number];
}

function postSecret(id: string, toolCallId: string | undefined, value: string) {
  return api(`/api/threads/${id}/secrets`, { method: 'POST', json: { tool_call_id: toolCallId, value } });
}

/** Every value of every row of every table in the thread's SQLite, as text. */
async function allStoredText(id: string): Promise<string> {
  return runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray();
    return tables.map(({ name }) => JSON.stringify(sql.exec(`SELECT * FROM "${name}"`).toArray())).join('\n');
  });
}

async function storedRows(id: string) {
  return runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), (_instance, state) => ({
    variables: state.storage.sql
      .exec<{ name: string; secret: number; value: string }>('SELECT * FROM variables')
      .toArray(),
    answers: state.storage.sql
      .exec<{ answer: string | null }>("SELECT answer FROM interactions WHERE kind = 'secret'")
      .toArray()
      .map((row) => row.answer),
  }));
}

async function filesText(id: string): Promise<string> {
  const listed = await env.FILES.list({ prefix: `threads/${id}` });
  const bodies = await Promise.all(listed.objects.map(async (object) => (await env.FILES.get(object.key))?.text()));
  return bodies.join('\n');
}

/** The thread's waits as the inbox of waits (GET /api/waits) lists them. */
async function inboxWaits(id: string): Promise<{ kind: string; payload: unknown; payload_omitted: boolean }[]> {
  const page = (await (await api('/api/waits?kind=secret&limit=200')).json()) as {
    waits: { thread_id: string; kind: string; payload: unknown; payload_omitted: boolean }[];
  };
  return page.waits.filter((wait) => wait.thread_id === id);
}

const toolResults = (log: Message[]) => log.filter((m) => m.role === 'tool').map((m) => [m.name, m.content]);

describe('store_secret (VAR-5)', () => {
  it('VAR-5, VAR-3, EXE-8: a 401 is healed by store_secret and a retry; the value is nowhere in plain text', async () => {
    const canary = `sec-valid-${crypto.randomUUID()}`;
    const marker = `marker-${crypto.randomUUID()}`;
    const id = await createThread({ agent: 'sec_remote' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [CALL] }, { toolCalls: [STORE] }, { toolCalls: [CALL] }, { text: marker }]),
      },
    });
    const wait = await waitingFor(id, 'secret');
    expect(wait).toMatchObject({
      name: 'store_secret',
      kind: 'secret',
      payload: { name: 'SEC_API_KEY', reason: 'The service answered 401' },
    });
    // INBOX-1: the inbox lists it as the thread shows it: which variable and why, never a value.
    const listed = await until(
      () => inboxWaits(id),
      (waits) => waits.length === 1,
    );
    expect(listed[0]).toMatchObject({ kind: 'secret', payload: wait.payload, payload_omitted: false });
    const posted = await postSecret(id, wait.tool_call_id, canary);
    expect(posted.status).toBe(200);
    expect(JSON.stringify(await posted.json())).not.toContain(canary);
    const log = await settled(id);
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    expect(toolResults(log)).toEqual([
      // CRED-1: the error names the variable to refresh.
      [
        'sec_call_service',
        'Error: 401 Unauthorized: missing api key SEC_API_KEY\nCredential hint: the error reports a refused credential. Variables to refresh: SEC_API_KEY. Call store_secret for each, then retry this call once.',
      ],
      [
        'store_secret',
        'The user stored a new value for "SEC_API_KEY" (the value is kept from you on purpose). Retry the tool call that failed.',
      ],
      // The retry read the new value, and the scrubber hid it where the tool put it.
      ['sec_call_service', 'authorized with key [secret]'],
    ]);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: marker });
    expect(stream.frames.filter((frame) => frame.type === 'answered')).toMatchObject([{ kind: 'secret' }]);

    // The model never saw the value, and was offered store_secret though the prompt does not list it.
    const received = (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)).json()) as {
      tools?: { function: { name: string } }[];
    }[];
    expect(received).toHaveLength(4);
    expect(received[0]?.tools?.map((tool) => tool.function.name)).toEqual(['sec_call_service', 'store_secret']);
    expect(JSON.stringify(received)).not.toContain(canary);
    const anyRequest = await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${canary}`)).json();
    expect(anyRequest).toEqual([]);

    // Messages, frames, every SQLite row and the thread's files: sealed or absent.
    expect(JSON.stringify(log)).not.toContain(canary);
    expect(JSON.stringify(stream.frames)).not.toContain(canary);
    expect(await allStoredText(id)).not.toContain(canary);
    expect(await filesText(id)).not.toContain(canary);
    // The inbox's copy in D1: the wait gone with the turn that answered it, the value never there.
    await until(
      () => inboxWaits(id),
      (waits) => waits.length === 0,
    );
    const indexed = await env.DB.prepare('SELECT * FROM thread_waits').all();
    expect(JSON.stringify(indexed.results)).not.toContain(canary);
    const rows = await storedRows(id);
    expect(rows.variables).toEqual([{ name: 'SEC_API_KEY', secret: 1, value: expect.any(String) }]);
    expect(rows.answers).toEqual([JSON.stringify({ stored: true })]);
    stream.close();
  });

  it('VAR-5: at most two store_secret rounds per variable per turn; a new user message starts over', async () => {
    const wrong = [`sec-wrong-${crypto.randomUUID()}`, `sec-wrong-${crypto.randomUUID()}`];
    const id = await createThread({ agent: 'sec_scripted' });
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [CALL] },
          { toolCalls: [STORE] },
          { toolCalls: [CALL] },
          { toolCalls: [STORE] },
          { toolCalls: [CALL] },
          { toolCalls: [STORE] },
          { text: 'the key keeps failing' },
        ]),
      },
    });
    const first = await waitingFor(id, 'secret');
    expect((await postSecret(id, first.tool_call_id, wrong[0] as string)).status).toBe(200);
    const second = await waitingFor(id, 'secret', [first.tool_call_id]);
    expect((await postSecret(id, second.tool_call_id, wrong[1] as string)).status).toBe(200);
    const log = await settled(id);
    const results = toolResults(log);
    expect(results.map(([name]) => name)).toEqual([
      'sec_call_service',
      'store_secret',
      'sec_call_service',
      'store_secret',
      'sec_call_service',
      'store_secret',
    ]);
    expect(results[2]?.[1]).toBe(
      'Error: 401 Unauthorized: invalid api key\nCredential hint: the error reports a refused credential. Variables to refresh: SEC_API_KEY. Call store_secret for each, then retry this call once.',
    );
    expect(results[5]?.[1]).toContain('already asked for 2 times in this turn');
    expect(results[5]?.[1]).toContain('tell the user the credential problem');
    expect(log.at(-1)?.content).toBe('the key keeps failing');
    // The second value replaced the first: one sealed row, neither value in plain text.
    const rows = await storedRows(id);
    expect(rows.variables).toHaveLength(1);
    const stored = await allStoredText(id);
    for (const value of wrong) expect(stored).not.toContain(value);

    // A new turn gets its rounds back.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [STORE] }, { text: 'asked again' }]) },
    });
    const third = await waitingFor(id, 'secret', [first.tool_call_id, second.tool_call_id]);
    expect(third.payload).toEqual({ name: 'SEC_API_KEY', reason: 'The service answered 401' });
  });

  it('VAR-5: a secret for a call that does not wait for one is a 409, and a secret wait takes no other answer', async () => {
    const id = await createThread({ agent: 'sec_scripted' });
    const unknown = await postSecret(id, 'call_unknown', 'sec-valid-unused');
    expect(unknown.status).toBe(409);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_waiting' } });

    const questions = [{ question: 'Which service?' }];
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'ok' }]) },
    });
    const question = await waitingFor(id, 'question');
    const onQuestion = await postSecret(id, question.tool_call_id, 'sec-valid-unused');
    expect(onQuestion.status).toBe(409);
    expect((await storedRows(id)).variables).toEqual([]);
    await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: question.tool_call_id, answers: [['billing']] },
    });
    await settled(id);

    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [STORE] }, { text: 'stored' }]) },
    });
    const secret = await waitingFor(id, 'secret');
    // The answers route cannot answer a secret wait (its value would be stored as an answer).
    const asAnswers = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: secret.tool_call_id, answers: [['sec-valid-plain']] },
    });
    expect(asAnswers.status).toBe(409);
    const empty = await postSecret(id, secret.tool_call_id, '');
    expect(empty.status).toBe(400);
    // VAR-3: a value under 8 characters is refused, and the call keeps waiting for a usable one.
    const short = await postSecret(id, secret.tool_call_id, 'sec-val');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({
      error: { code: 'secret_too_short', message: expect.stringContaining('"SEC_API_KEY"') },
    });
    expect((await waitingFor(id, 'secret')).tool_call_id).toBe(secret.tool_call_id);
    expect((await storedRows(id)).variables).toEqual([]);
    expect((await postSecret(id, secret.tool_call_id, 'sec-valid-once')).status).toBe(200);
    expect((await postSecret(id, secret.tool_call_id, 'sec-valid-twice')).status).toBe(409);
    expect((await settled(id)).at(-1)?.content).toBe('stored');
    expect(await allStoredText(id)).not.toContain('sec-valid-');
  });

  it('VAR-5: on a headless thread store_secret fails at once and the turn goes on', async () => {
    const id = await createThread({
      agent: 'sec_scripted',
      headless: true,
      messages: [{ content: directive([{ toolCalls: [CALL] }, { toolCalls: [STORE] }, { text: 'reported' }]) }],
    });
    const log = await settled(id);
    const result = log.filter((m) => m.role === 'tool').at(-1);
    expect(result).toMatchObject({ name: 'store_secret', tool_status: 'error' });
    expect(result?.content).toContain('headless');
    expect(log.at(-1)?.content).toBe('reported');
    expect((await thread(id)).status).toBe('idle');
  });

  it('VAR-5: a variable no tool, prompt or agent declares is refused without asking anyone', async () => {
    const id = await createThread({
      agent: 'sec_scripted',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'store_secret', arguments: { name: 'OTHER_KEY' } }] },
            { text: 'refused' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'error',
      content: expect.stringContaining('declares a variable named "OTHER_KEY"'),
    });
    expect((await thread(id)).status).toBe('idle');
  });
});
