/**
 * The tool rules through the HTTP API, in workerd: read-only tools run where no rule covers their
 * reads (RO-1), "allow always" answers every kind of ask (ALWAYS-1), argument patterns of a shell
 * requirement (PAT-1), and a question's answers checked against what it asked. A scripted
 * model calls the tools as a model would; what a client can observe afterwards shows each refusal
 * changed nothing.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import {
  ARG_PATTERN_LINES,
  ASKED_QUESTIONS,
  QUESTION_ANSWER_FORGERIES,
  READ_ONLY_REACHES,
} from '../support/hostile-corpus.js';
import { outsideData } from '../support/outside-data.js';

type Call = { name: string; arguments: Record<string, unknown> };

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: { arguments?: unknown } }[];
}

async function upload(id: string, path: string, text: string): Promise<void> {
  const body = new TextEncoder().encode(text);
  const response = await api(`/api/threads/${id}/files${path}`, {
    method: 'PUT',
    body,
    headers: { 'content-length': String(body.byteLength), 'content-type': 'text/plain' },
  });
  expect(response.status).toBe(201);
}

/** Each call in a step of its own, then a final answer, on a new thread with `files`. */
async function run(agent: string, files: Record<string, string>, calls: Call[], extra: Record<string, unknown> = {}) {
  const id = await createThread({ agent, headless: true, ...extra });
  for (const [path, text] of Object.entries(files)) await upload(id, path, text);
  await api(`/api/threads/${id}/messages`, {
    method: 'POST',
    json: { content: directive([...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }]) },
  });
  const log = await settled(id);
  return { id, results: log.filter((message) => message.role === 'tool') };
}

async function waiting(id: string): Promise<Waiting> {
  return until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (view) => view.status === 'waiting',
  );
}

/** Requests the local web service received whose URL holds the tag. */
async function received(tag: string): Promise<unknown[]> {
  return (await (
    await fetch(`${env.SERVICES_URL}/web/requests?containing=${encodeURIComponent(tag)}`)
  ).json()) as unknown[];
}

const NOTES = {
  '/notes/a.md': 'hello from a',
  '/notes/b.txt': 'hello from b',
  '/secret/key.txt': 'KEY-9f2',
  '/ask/x.md': 'asked',
};

describe('read-only tools (RO-1)', () => {
  it('RO-1: read, glob, grep and read-only user tools run on a headless thread no rule covers', async () => {
    const { results } = await run('ro_plain', NOTES, [
      { name: 'read', arguments: { path: '/notes/a.md' } },
      { name: 'glob', arguments: { pattern: '**/*.md' } },
      { name: 'grep', arguments: { pattern: 'hello', path: '/notes' } },
      { name: 'ro_note', arguments: { path: 'notes/b.txt' } },
      { name: 'ro_lookup', arguments: { key: 'colour' } },
    ]);
    expect(results.map((result) => result.tool_status)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(results[0]?.content).toContain('hello from a');
    expect(results[1]?.content).toContain('/notes/a.md');
    expect(results[2]?.content).toContain('hello from b');
    // Files the model did not write reach it as outside data.
    expect(outsideData(results[3]?.content)).toBe('hello from b');
    expect(results[4]?.content).toBe('colour: unset');
  });

  it('RO-1: on an interactive thread a read-only tool does not wait for approval', async () => {
    const id = await createThread({ agent: 'ro_plain' });
    await upload(id, '/notes/a.md', 'hello from a');
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'read', arguments: { path: '/notes/a.md' } }] }, { text: 'ok' }]),
      },
    });
    const log = await settled(id);
    expect(log.find((message) => message.role === 'tool')).toMatchObject({ tool_status: 'success' });
    expect((await thread(id)).status).toBe('idle');
  });

  it('RO-1: a child thread (headless) runs read-only tools no rule covers', async () => {
    const child = directive([
      { toolCalls: [{ name: 'ro_lookup', arguments: { key: 'colour' } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*' } }] },
      { text: 'child done' },
    ]);
    const { id, results } = await run('ro_parent', {}, [
      { name: 'task', arguments: { description: 'look up a value', prompt: child } },
    ]);
    expect(results[0]).toMatchObject({ tool_status: 'success' });
    const view = (await (await api(`/api/threads/${id}`)).json()) as { children: { id: string }[] };
    expect(view.children).toHaveLength(1);
    const childResults = (await messages(view.children[0]?.id as string)).filter((message) => message.role === 'tool');
    expect(childResults.map((result) => [result.tool_status, result.content])).toEqual([
      ['success', 'colour: unset'],
      ['success', 'No files match /**/*'],
    ]);
  });

  it('RO-1: a deny still refuses a read-only tool, and an ask rule still asks (denied when headless)', async () => {
    const { results } = await run('ro_ruled', NOTES, [
      { name: 'read', arguments: { path: '/secret/key.txt' } },
      { name: 'ro_note', arguments: { path: '/secret/key.txt' } },
      { name: 'read', arguments: { path: '/ask/x.md' } },
      { name: 'grep', arguments: { pattern: 'KEY', path: '/' } },
      { name: 'read', arguments: { path: '/notes/a.md' } },
    ]);
    expect(results[0]?.content).toContain('Denied by the manifest rule (fs.read, /secret/*, deny)');
    expect(results[1]?.content).toContain('Denied by the manifest rule (fs.read, /secret/*, deny)');
    expect(results[2]?.content).toContain('the manifest rule (read, /ask/*, ask) asks');
    expect(results[2]?.content).toContain('headless');
    // The denied file's lines never show in a search; the unruled read runs.
    expect(results[3]?.content).not.toContain('KEY-9f2');
    expect(results[4]).toMatchObject({ tool_status: 'success' });
    expect(results.map((result) => result.content).join('\n')).not.toContain('KEY-9f2');
  });

  it.each(READ_ONLY_REACHES)('RO-1: network subjects still ask: $label', async ({ tool, args }) => {
    const tag = `ro-net-${crypto.randomUUID()}`;
    const url = `${env.SERVICES_URL}/web/page.html?tag=${tag}`;
    const { results } = await run('ro_plain', {}, [{ name: tool, arguments: args(url) as Record<string, unknown> }], {
      variables: { SEARXNG_URL: `${env.SERVICES_URL}/web/searxng` },
    });
    expect(results[0]).toMatchObject({ tool_status: 'error' });
    expect(results[0]?.content).toContain('headless');
    expect(await received(tag)).toEqual([]);
  });

  it('RO-1: a read-only tool nobody allowed cannot write, or reach a host, while it runs', async () => {
    const tag = `ro-sneak-${crypto.randomUUID()}`;
    const { id, results } = await run('ro_plain', {}, [
      { name: 'ro_sneak', arguments: { url: `${env.SERVICES_URL}/web/page.html?tag=${tag}` } },
    ]);
    const report = results[0]?.content ?? '';
    expect(report).toMatch(
      /^write: No permission rule covers fs\.write "\/sneak\.txt", and "ro_sneak" runs unasked only because it is read-only/,
    );
    expect(report).toMatch(/\nfetch: No permission rule covers net\.fetch "[^"]+", and "ro_sneak" runs unasked/);
    expect(report).toMatch(/\nglobal: .*No permission rule covers net\.fetch/);
    expect((await api(`/api/threads/${id}/files/sneak.txt`)).status).toBe(404);
    expect(await received(tag)).toEqual([]);
  });
});

describe('"allow always" (ALWAYS-1)', () => {
  async function askedTwice(tool: string): Promise<{ id: string; log: Message[]; view: Waiting }> {
    const id = await createThread({ agent: 'asked' });
    const call = (text: string) => ({ toolCalls: [{ name: tool, arguments: { text } }] });
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([call('a'), { text: 'first' }]) },
    });
    const first = await waiting(id);
    expect(first.waiting_for[0]).toMatchObject({ kind: 'approval', name: tool });
    const answered = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: first.waiting_for[0]?.tool_call_id, approved: true, always: true },
    });
    expect(answered.status).toBe(200);
    await settled(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([call('a'), call('b'), { text: 'second' }]) },
    });
    const view = await waiting(id);
    return { id, log: await messages(id), view };
  }

  it('ALWAYS-1: "allow always" on a watchdog ask runs the same tool and subject unasked; another subject asks', async () => {
    const { log, view } = await askedTwice('dog_echo');
    expect(log.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'dog: a',
      'dog: a',
    ]);
    expect(view.waiting_for).toHaveLength(1);
    expect(view.waiting_for[0]).toMatchObject({
      kind: 'approval',
      name: 'dog_echo',
      payload: { arguments: { text: 'b' } },
    });
  });

  it('ALWAYS-1: "allow always" on a requireApproval ask runs the same tool and subject unasked; another subject asks', async () => {
    const { log, view } = await askedTwice('approve_echo');
    expect(log.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'approved: a',
      'approved: a',
    ]);
    expect(view.waiting_for[0]).toMatchObject({
      kind: 'approval',
      name: 'approve_echo',
      payload: { arguments: { text: 'b' } },
    });
  });

  it('ALWAYS-1: a watchdog deny still refuses after "allow always", and other threads are not affected', async () => {
    const { id } = await askedTwice('dog_echo');
    const other = await createThread({ agent: 'asked', headless: true });
    await api(`/api/threads/${other}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'dog_echo', arguments: { text: 'a' } }] }, { text: 'x' }]) },
    });
    const otherLog = await settled(other);
    expect(otherLog.find((message) => message.role === 'tool')?.content).toContain('headless');
    await api(`/api/threads/${id}/stop`, { method: 'POST' });
    await settled(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'dog_echo', arguments: { text: 'forbidden' } }] }, { text: 'x' }]),
      },
    });
    const log = await settled(id);
    expect(log.filter((message) => message.role === 'tool').at(-1)?.content).toBe(
      'Error: Denied by the watchdog: not this text',
    );
  });
});

describe('argument patterns (PAT-1)', () => {
  it('PAT-1: { wildcard } and { prefix } match shell words, paths and URLs as documented', async () => {
    // One model step calling the tool once per line: each call is checked on its own.
    const id = await createThread({ agent: 'arg_patterns', headless: true });
    const calls = ARG_PATTERN_LINES.map(({ line }) => ({ name: 'run_line', arguments: { line } }));
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: calls }, { text: 'done' }]) },
    });
    const results = (await settled(id)).filter((message) => message.role === 'tool');
    const seen = ARG_PATTERN_LINES.map(({ line }, index) => ({
      line,
      runs: results[index]?.tool_status === 'success',
    }));
    expect(seen).toEqual(ARG_PATTERN_LINES.map(({ line, runs }) => ({ line, runs })));
    for (const [index, { runs }] of ARG_PATTERN_LINES.entries()) {
      if (!runs) expect(results[index]?.content).toContain("is outside this agent's capabilities (shell.run)");
    }
  });
});

describe('question answers (Q-1)', () => {
  it('Q-1: answers outside the options, or several to a single-select question, are refused with 400 naming the question', async () => {
    const id = await createThread({ agent: 'general' });
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [{ name: 'question', arguments: { questions: ASKED_QUESTIONS } }] },
          { text: 'thanks' },
        ]),
      },
    });
    const view = await waiting(id);
    const callId = view.waiting_for[0]?.tool_call_id;
    for (const forgery of QUESTION_ANSWER_FORGERIES) {
      const response = await api(`/api/threads/${id}/answers`, {
        method: 'POST',
        json: { tool_call_id: callId, answers: forgery.answers },
      });
      expect(response.status, forgery.label).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code, forgery.label).toBe('invalid_answer');
      expect(body.error.message, forgery.label).toContain(forgery.names);
    }
    // Nothing was stored: the call still waits, and the right answer is taken.
    expect((await waiting(id)).waiting_for[0]?.tool_call_id).toBe(callId);
    expect((await messages(id)).filter((message) => message.role === 'tool')).toEqual([]);
    const answered = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: callId, answers: [['café'], ['coffee', 'tea'], ['because']] },
    });
    expect(answered.status).toBe(200);
    const log = await settled(id);
    expect(log.find((message) => message.role === 'tool')?.content).toBe(
      JSON.stringify({ answers: [['café'], ['coffee', 'tea'], ['because']] }),
    );
  });
});
