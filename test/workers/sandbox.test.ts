/**
 * Sandboxed code through the HTTP API (CODE-1, THR-7): programs run by `state.runCode` in isolates
 * of the LOADER binding, and `run_code` programs calling the agent's tools, each call checked and
 * stored like the model's. Every test makes its own thread; the model is scripted by the test's own
 * user message.
 */
import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message, RunCodeResult } from '@standardagents/spec';
import { describe, expect, inject, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { refusedUrls, SANDBOX_ESCAPES } from '../support/hostile-corpus.js';
import { openStream } from '../support/socket.js';

type ProgramArgs = Record<string, unknown> & { code: string };

function toolResult(log: readonly Message[], name: string): Message | undefined {
  return log.find((message) => message.role === 'tool' && message.name === name && message.depth === 0);
}

/** Runs `sb_program` once in a new thread and returns what `state.runCode` returned. */
async function runProgram(args: ProgramArgs): Promise<{ outcome: RunCodeResult; id: string; log: Message[] }> {
  const id = await createThread({
    agent: 'sandbox',
    messages: [{ content: directive([{ toolCalls: [{ name: 'sb_program', arguments: args }] }, { text: 'done' }]) }],
  });
  const log = await settled(id);
  const result = toolResult(log, 'sb_program');
  if (result?.tool_status !== 'success') throw new Error(`sb_program failed: ${result?.content}`);
  return { outcome: JSON.parse(result.content ?? '') as RunCodeResult, id, log };
}

/** A thread whose model calls run_code with `code`, then answers `after`. */
async function runCodeThread(code: string, after = 'done'): Promise<string> {
  return createThread({
    agent: 'sandbox',
    messages: [{ content: directive([{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: after }]) }],
  });
}

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; kind: string; name: string }[];
}

async function waiting(id: string): Promise<Waiting> {
  return until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (view) => view.status === 'waiting',
  );
}

describe('state.runCode', () => {
  it('CODE-1: a program returns a value; TypeScript and its own modules are accepted', async () => {
    const { outcome } = await runProgram({
      code: `import { double } from './math';\ninterface Pair { a: number; b: number }\nconst pair: Pair = input as Pair;\nreturn { sum: pair.a + pair.b, twice: double(pair.a) };`,
      input_json: '{"a":2,"b":40}',
      modules_json: JSON.stringify({ 'math.ts': 'export const double = (n: number): number => n * 2;' }),
    });
    expect(outcome).toEqual({ status: 'success', result: { sum: 42, twice: 4 }, logs: [], logsDropped: 0 });
  });

  it('CODE-1: a syntax error and a thrown error each come back as data with their line', async () => {
    const syntax = await runProgram({ code: 'const a = 1;\nconst b = ;\nreturn a;' });
    expect(syntax.outcome).toMatchObject({ status: 'error', file: 'program', line: 2 });
    const thrown = await runProgram({ code: "const a = 1;\n\nthrow new Error('broken at ' + a);" });
    expect(thrown.outcome).toMatchObject({ status: 'error', error: expect.stringContaining('broken at 1'), line: 3 });
  });

  it('CODE-1: console output is captured and capped', async () => {
    const { outcome } = await runProgram({
      code: `console.log('hello', { n: 1 });\nconsole.warn('careful');\nfor (let i = 0; i < 250; i++) console.info('line ' + i);\nreturn 'ok';`,
    });
    expect(outcome.status).toBe('success');
    expect(outcome.logs.slice(0, 2)).toEqual([
      { level: 'log', text: 'hello {"n":1}' },
      { level: 'warn', text: 'careful' },
    ]);
    expect(outcome.logs).toHaveLength(200);
    expect(outcome.logsDropped).toBe(52);
  });

  it('CODE-1: an endless loop and an allocation loop end in errors, and the thread goes on to its next step', async () => {
    const loop = await runProgram({ code: 'while (true) {}' });
    expect(loop.outcome).toMatchObject({ status: 'error', error: expect.stringMatching(/loop iterations|time limit/) });
    expect(loop.log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
    const memory = await runProgram({ code: 'const a = [];\nwhile (true) a.push(new Array(1e6).fill(1));' });
    expect(memory.outcome).toMatchObject({ status: 'error', error: expect.stringContaining('allocated more than') });
    expect(memory.log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  });

  it('CODE-1: a program that only waits ends at its timeout', async () => {
    const { outcome } = await runProgram({ code: 'await new Promise(() => {});', timeout: 300 });
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining('300 ms') });
  });

  it('CODE-1: without a network grant, fetch fails, sockets cannot even be imported, eval and new Function are refused', async () => {
    const services = inject('servicesUrl');
    const sockets = await runProgram({
      code: `const { connect } = await import('cloudflare:sockets');\nawait connect('127.0.0.1:1').opened;\nreturn 'connected';`,
    });
    expect(sockets.outcome).toMatchObject({ status: 'error', error: expect.stringContaining('cloudflare:sockets') });
    const { outcome } = await runProgram({
      code: `const tried = [];
for (const attempt of [
  () => fetch(${JSON.stringify(`${services}/web/data.json`)}),
  () => fetch('http://127.0.0.1:1/'),
  () => eval('1 + 1'),
  () => new Function('return 1')(),
]) {
  try { await attempt(); tried.push('reached'); } catch { tried.push('refused'); }
}
return tried;`,
    });
    expect(outcome).toMatchObject({ status: 'success', result: ['refused', 'refused', 'refused', 'refused'] });
  });

  it('CODE-1: a granted network goes through the egress policy: a development host answers, the intranet and metadata hosts do not', async () => {
    const services = inject('servicesUrl');
    const intranet = inject('intranetUrl');
    const { outcome } = await runProgram({
      network: true,
      code: `const out = {};
for (const [name, url] of Object.entries(input)) {
  try { const response = await fetch(url); out[name] = response.status + ' ' + (await response.text()).slice(0, 40); }
  catch (error) { out[name] = 'threw ' + error.message; }
}
return out;`,
      input_json: JSON.stringify({
        service: `${services}/web/data.json`,
        intranet: `${intranet}/secret`,
        metadata: 'http://169.254.169.254/latest/meta-data/',
        redirected: `${services}/web/redirect-to?location=${encodeURIComponent(`${intranet}/secret`)}`,
      }),
    });
    expect(outcome.status).toBe('success');
    const result = (outcome as { result: Record<string, string> }).result;
    expect(result.service).toBe('200 {"answer":42}');
    for (const refused of ['intranet', 'metadata', 'redirected']) {
      expect(result[refused], refused).toMatch(/^403 /);
      expect(result[refused], refused).not.toContain('intranet secret');
    }
  });

  it('CODE-1: every spelling of an inside address is refused to a program with the network, and nothing reaches the intranet', async () => {
    const intranet = new URL(inject('intranetUrl'));
    const marker = `/sandbox-${crypto.randomUUID()}`;
    const urls = refusedUrls(Number(intranet.port), marker).map((entry) => entry.url);
    const { outcome } = await runProgram({
      network: true,
      input_json: JSON.stringify(urls),
      code: `const out = [];
for (const url of input) {
  try { const response = await fetch(url); out.push(response.status + ' ' + (await response.text()).slice(0, 30)); }
  catch (error) { out.push('threw'); }
}
return out;`,
    });
    expect(outcome.status).toBe('success');
    for (const [index, seen] of ((outcome as { result: string[] }).result ?? []).entries()) {
      expect(seen, urls[index]).toMatch(/^(403 |threw)/);
    }
    const log = (await (await fetch(`${inject('servicesUrl')}/web/requests`)).json()) as { path: string }[];
    expect(log.filter((request) => request.path.includes(marker))).toEqual([]);
  });

  it('CODE-1: programs that try to leave the sandbox are contained (hostile corpus)', async () => {
    for (const { label, code } of SANDBOX_ESCAPES) {
      const { outcome } = await runProgram({ code, timeout: 2_000 });
      expect(outcome.status === 'success' ? outcome.result : 'contained', label).not.toBe('escaped');
    }
  });

  it('CODE-1: files are reachable only under the granted paths, and the thread rules still apply', async () => {
    const { outcome } = await runProgram({
      read: ['/notes', '/locked'],
      write: ['/notes'],
      code: `await files.write('/notes/a.txt', 'alpha');
const attempts = { read: await files.read('/notes/a.txt') };
for (const [name, act] of Object.entries({
  outside: () => files.write('/elsewhere/b.txt', 'x'),
  traversal: () => files.write('/notes/../elsewhere/c.txt', 'x'),
  ruled: () => files.read('/locked/key.txt'),
})) {
  try { await act(); attempts[name] = 'allowed'; } catch (error) { attempts[name] = 'refused'; }
}
return attempts;`,
    });
    expect(outcome).toMatchObject({
      status: 'success',
      result: { read: 'alpha', outside: 'refused', traversal: 'refused', ruled: 'refused' },
    });
  });
});

describe('run_code', () => {
  it('CODE-1, THR-7: a program calls two tools and returns a combined answer; every inner call is in the log and the stream', async () => {
    const id = await runCodeThread(
      `const three = await tools.sb_add({ a: 1, b: 2 });\nconst thirteen = await tools.sb_add({ a: Number(three), b: 10 });\nreturn { three, thirteen };`,
    );
    const stream = await openStream(id, 0);
    const log = await settled(id);
    const outer = toolResult(log, 'run_code');
    expect(outer).toMatchObject({ tool_status: 'success', content: '{"three":"3","thirteen":"13"}' });
    const nested = await messages(id, '&depth=1');
    const inner = nested.filter((message) => message.metadata?.invoked_by === outer?.tool_call_id);
    expect(inner.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(['3', '13']);
    await stream.waitFor((frame) => frame.type === 'tool_result' && frame.tool_call_id === `${outer?.tool_call_id}.2`);
    const started = stream.frames.filter((frame) => frame.type === 'tool_started').map((frame) => frame.tool_call_id);
    expect(started).toEqual([outer?.tool_call_id, `${outer?.tool_call_id}.1`, `${outer?.tool_call_id}.2`]);
    stream.close();
  });

  it('CODE-1: the model is shown the callable tools as TypeScript declarations', async () => {
    const marker = `declarations-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'sandbox_remote',
      messages: [{ content: directive([{ text: marker }]) }],
    });
    await settled(id);
    const received = (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)).json()) as {
      messages: { role: string; content: string }[];
    }[];
    const system = received[0]?.messages.find((message) => message.role === 'system')?.content ?? '';
    expect(system).toContain('declare const tools: {');
    expect(system).toContain('sb_add(args: { a: number; b: number }): Promise<string>;');
    expect(system).not.toContain('run_code(');
  });

  it('THR-7: a tool the agent lacks and a denied tool fail inside the program with a clear error', async () => {
    const id = await runCodeThread(`const out = [];
for (const name of ['sb_missing', 'sb_denied']) {
  try { await tools[name]({}); out.push(name + ' ran'); } catch (error) { out.push(name + ': ' + error.message); }
}
return out;`);
    const result = JSON.parse(toolResult(await settled(id), 'run_code')?.content ?? '[]') as string[];
    expect(result[0]).toMatch(/^sb_missing: .*(not a function|not granted)/);
    expect(result[1]).toMatch(/^sb_denied: .*[Dd]enied/);
  });

  it('THR-7: a call that needs approval pauses the thread; after the answer the program runs again and earlier calls are replayed', async () => {
    const id = await runCodeThread(
      `const first = await tools.sb_tick({});\nconst second = await tools.sb_guarded({});\nreturn first + ' / ' + second;`,
    );
    const view = await waiting(id);
    const wait = view.waiting_for[0];
    expect(wait).toMatchObject({ kind: 'approval', name: 'sb_guarded' });
    expect(wait?.tool_call_id).toMatch(/\.2$/);
    const approved = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: wait?.tool_call_id, approved: true },
    });
    expect(approved.status).toBeLessThan(300);
    const log = await settled(id);
    expect(toolResult(log, 'run_code')).toMatchObject({ tool_status: 'success', content: 'tick 1 / guarded ran' });
    const ticks = (await messages(id, '&depth=1')).filter(
      (message) => message.role === 'tool' && message.name === 'sb_tick',
    );
    expect(ticks.map((message) => message.content)).toEqual(['tick 1']);
  });

  it('EXE-5: POST /stop during a long program ends it; its later calls are refused', async () => {
    const id = await runCodeThread(
      `for (;;) { await tools.sb_tick({}); await new Promise((resolve) => setTimeout(resolve, 20)); }`,
    );
    await until(
      () => messages(id, '&depth=1'),
      (log) => log.filter((message) => message.role === 'tool').length >= 2,
    );
    expect((await api(`/api/threads/${id}/stop`, { method: 'POST' })).status).toBe(200);
    const log = await until(
      () => messages(id, '&depth=1'),
      (entries) => entries.some((message) => message.role === 'tool' && message.name === 'run_code'),
    );
    expect(toolResult(log, 'run_code')).toMatchObject({ tool_status: 'error' });
    const ticksAtStop = log.filter((message) => message.name === 'sb_tick' && message.role === 'tool').length;
    // Another full turn later, the stopped program has added nothing.
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive([{ text: 'again' }]) } });
    const after = await settled(id);
    expect((await messages(id, '&depth=1')).filter((m) => m.name === 'sb_tick' && m.role === 'tool')).toHaveLength(
      ticksAtStop,
    );
    expect(after.at(-1)).toMatchObject({ role: 'assistant', content: 'again' });
  });

  it('THR-3: a thread evicted while a program runs does not run the program twice', async () => {
    const id = await runCodeThread(
      `await tools.sb_tick({});\nawait new Promise((resolve) => setTimeout(resolve, 60000));\nawait tools.sb_tick({});\nreturn 'finished';`,
      'resumed',
    );
    await until(
      () => messages(id, '&depth=1'),
      (log) => log.some((message) => message.role === 'tool' && message.name === 'sb_tick'),
    );
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const log = await settled(id);
    expect(toolResult(log, 'run_code')?.content).toContain('interrupted by a restart');
    const ticks = (await messages(id, '&depth=1')).filter(
      (message) => message.role === 'tool' && message.name === 'sb_tick',
    );
    expect(ticks).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'resumed' });
    expect((await thread(id)).status).toBe('idle');
  });
});
