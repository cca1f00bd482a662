/**
 * `npm run bench`: the runtime's own time per tool round under a real `wrangler dev`, against the
 * floor of what a round must cost, how it changes with the length of the thread's history, what
 * each provider adapter adds to it, what a sandboxed program and a tool call from inside one cost,
 * and what a call of an MCP server's tool costs beside a local tool.
 *
 * The model (bench/model-server.mjs) answers at once from a local server; a round is timed on that
 * server, from the end of one answer to the arrival of the next request, so it holds exactly the
 * client's work: read the answer, run the tool, persist the result, build and send the next request.
 * The Floor object (bench/floor.ts) is timed the same way. Every measurement follows a warm-up, and
 * the runtime and the floor are interleaved so drift on a shared machine hits both alike. wrangler dev
 * serves one build made at start, so source edits during the run cannot restart the Worker. Writes
 * the table to bench/RESULTS.md and prints it.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { startMcpServer } from '../harness/mcp-servers.mjs';
import { startWranglerDev } from '../harness/wrangler-dev.mjs';
import { startTimedModelServer } from './model-server.mjs';
import { describeMachine, renderResults } from './report.mjs';
import { summarize } from './stats.mjs';

const KEY = 'bench-key';
const RUN_TIMEOUT_MS = 60_000;
const WARM_UP_ROUNDS = 40;
/**
 * Compared measurements alternate run by run, in short runs (a turn is capped at 100 model steps
 * anyway), so load from other processes on a shared machine falls on both sides alike.
 */
const ROUNDS_PER_RUN = 20;
const OVERHEAD_RUNS = 30;
const HISTORY_RUNS = 15;
const PROVIDER_RUNS = 15;
const CODE_RUNS = 15;
const MCP_RUNS = 15;
/** The MCP tool `bench-mcp` calls: `whoami` of the local test server, which takes no arguments. */
const MCP_TOOL = 'local__whoami';
/** Tool calls one program makes in the inner-call measurement. */
const INNER_CALLS = 10;
const SHORT_HISTORY = 10;
const LONG_HISTORY = 2000;
/** What each bench agent sends the model (bench/worker.ts). */
const AGENTS = [
  { agent: 'bench', sends: 'the whole conversation' },
  { agent: 'bench-turn', sends: 'the current turn only' },
];
/** The same agent on each provider adapter (bench/worker.ts); `bench` is the OpenAI-compatible client. */
const PROVIDERS = [
  { provider: 'openai', agent: 'bench' },
  { provider: 'anthropic', agent: 'bench-anthropic' },
  { provider: 'google', agent: 'bench-google' },
  { provider: 'workers-ai', agent: 'bench-workers-ai' },
];

/** @typedef {{ gaps: number[], bodyBytes: number[] }} Sample Round times (ms) and request body sizes. */

const started = performance.now();
const model = await startTimedModelServer();
const mcp = await startMcpServer({ tools: 'basic' });
const dev = await startWranglerDev({
  config: 'bench/wrangler.toml',
  snapshot: true,
  vars: {
    API_KEYS: KEY,
    OPENAI_BASE_URL: `${model.origin}/v1`,
    OPENAI_API_KEY: 'bench',
    MODEL: 'bench-model',
    ANTHROPIC_BASE_URL: model.origin,
    ANTHROPIC_API_KEY: 'bench',
    GOOGLE_BASE_URL: model.origin,
    GOOGLE_API_KEY: 'bench',
    WORKERS_AI_URL: `${model.origin}/workers-ai/run`,
    // The local MCP server of `bench-mcp` is a development host for the egress policy.
    EGRESS_ALLOW_HOSTS: new URL(mcp.url).host,
  },
});

try {
  await runFloor(WARM_UP_ROUNDS);
  await runThread('bench', SHORT_HISTORY, WARM_UP_ROUNDS);
  const runtime = sample();
  const floor = sample();
  for (let run = 0; run < OVERHEAD_RUNS; run++) {
    add(floor, await runFloor(ROUNDS_PER_RUN));
    add(runtime, await runThread('bench', SHORT_HISTORY, ROUNDS_PER_RUN));
  }

  const history = [];
  for (const { agent, sends } of AGENTS) {
    await runThread(agent, LONG_HISTORY, WARM_UP_ROUNDS);
    const short = sample();
    const long = sample();
    for (let run = 0; run < HISTORY_RUNS; run++) {
      add(short, await runThread(agent, SHORT_HISTORY, ROUNDS_PER_RUN));
      add(long, await runThread(agent, LONG_HISTORY, ROUNDS_PER_RUN));
    }
    history.push({ agent, sends, short: measured(short), long: measured(long) });
  }

  // Every adapter in turn, run by run, so drift falls on all of them alike.
  for (const { agent } of PROVIDERS) await runThread(agent, SHORT_HISTORY, WARM_UP_ROUNDS);
  const perProvider = PROVIDERS.map(() => sample());
  for (let run = 0; run < PROVIDER_RUNS; run++) {
    for (const [index, { agent }] of PROVIDERS.entries()) {
      add(/** @type {Sample} */ (perProvider[index]), await runThread(agent, SHORT_HISTORY, ROUNDS_PER_RUN));
    }
  }
  const providers = PROVIDERS.map(({ provider, agent }, index) => ({
    provider,
    agent,
    measured: measured(/** @type {Sample} */ (perProvider[index])),
  }));

  // Sandboxed code: a noop round, a program that returns at once, one making INNER_CALLS calls,
  // interleaved run by run. A thread's first tool round is kept apart: its first program is the
  // first isolate this Durable Object loads.
  for (const program of [undefined, 0, INNER_CALLS])
    await runThread('bench-code', SHORT_HISTORY, WARM_UP_ROUNDS, { program });
  const code = { noop: sample(), empty: sample(), calls: sample(), firstNoop: sample(), firstEmpty: sample() };
  for (let run = 0; run < CODE_RUNS; run++) {
    const noop = await runThread('bench-code', SHORT_HISTORY, ROUNDS_PER_RUN);
    const empty = await runThread('bench-code', SHORT_HISTORY, ROUNDS_PER_RUN, { program: 0 });
    add(code.calls, await runThread('bench-code', SHORT_HISTORY, ROUNDS_PER_RUN, { program: INNER_CALLS }));
    for (const [first, rest, sampled] of [
      [code.firstNoop, code.noop, noop],
      [code.firstEmpty, code.empty, empty],
    ]) {
      add(first, { gaps: sampled.gaps.slice(0, 1), bodyBytes: sampled.bodyBytes.slice(0, 1) });
      add(rest, { gaps: sampled.gaps.slice(1), bodyBytes: sampled.bodyBytes.slice(1) });
    }
  }
  const sandbox = {
    innerCalls: INNER_CALLS,
    noop: measured(code.noop),
    empty: measured(code.empty),
    calls: measured(code.calls),
    firstNoop: measured(code.firstNoop),
    firstEmpty: measured(code.firstEmpty),
  };

  // MCP: the same thread kind calling `noop` or a tool of a local MCP server (the official SDK's
  // server, in Node), run by run. A thread's first MCP round lists the server and opens its session.
  const mcpThread = { variables: { BENCH_MCP_URL: mcp.url } };
  for (const tool of [undefined, MCP_TOOL])
    await runThread('bench-mcp', SHORT_HISTORY, WARM_UP_ROUNDS, { ...mcpThread, tool });
  const mcpSample = { noop: sample(), call: sample(), firstCall: sample() };
  for (let run = 0; run < MCP_RUNS; run++) {
    add(mcpSample.noop, await runThread('bench-mcp', SHORT_HISTORY, ROUNDS_PER_RUN, mcpThread));
    const called = await runThread('bench-mcp', SHORT_HISTORY, ROUNDS_PER_RUN, { ...mcpThread, tool: MCP_TOOL });
    add(mcpSample.firstCall, { gaps: called.gaps.slice(0, 1), bodyBytes: called.bodyBytes.slice(0, 1) });
    add(mcpSample.call, { gaps: called.gaps.slice(1), bodyBytes: called.bodyBytes.slice(1) });
  }
  const mcpResult = {
    tool: MCP_TOOL,
    noop: measured(mcpSample.noop),
    call: measured(mcpSample.call),
    firstCall: measured(mcpSample.firstCall),
  };

  const markdown = renderResults({
    date: new Date().toISOString(),
    machine: await describeMachine(),
    roundsPerRun: ROUNDS_PER_RUN,
    historyLengths: { short: SHORT_HISTORY, long: LONG_HISTORY },
    overhead: { runtime: measured(runtime), floor: measured(floor) },
    history,
    providers,
    sandbox,
    mcp: mcpResult,
    elapsedSeconds: (performance.now() - started) / 1000,
  });
  await writeFile(new URL('./RESULTS.md', import.meta.url), markdown);
  console.log(markdown);
} catch (error) {
  console.error(`wrangler dev output:\n${dev.output()}`);
  throw error;
} finally {
  await dev.stop();
  await model.close();
  await mcp.close();
}

/** @returns {Sample} */
function sample() {
  return { gaps: [], bodyBytes: [] };
}

/**
 * @param {Sample} into
 * @param {Sample} run
 */
function add(into, run) {
  into.gaps.push(...run.gaps);
  into.bodyBytes.push(...run.bodyBytes);
}

/** @param {Sample} sample */
function measured({ gaps, bodyBytes }) {
  return { ...summarize(gaps), bodyBytes: summarize(bodyBytes).median };
}

/**
 * A thread of `agent` created with `historyLength` messages, the last one asking for `rounds` tool
 * rounds; resolves with its sample once the thread is idle again.
 * @param {string} agent
 * @param {number} historyLength
 * @param {number} rounds
 * @param {{ program?: number, tool?: string, variables?: Record<string, string> }} [options] `program`:
 *   rounds call `bench_program` with this many inner calls; `tool`: rounds call this tool; else `noop`.
 */
async function runThread(agent, historyLength, rounds, options = {}) {
  const nonce = randomUUID();
  const finished = model.finished(nonce, RUN_TIMEOUT_MS);
  const messages = history(historyLength, nonce, rounds, options);
  const { id } = await api('POST', '/api/threads', { agent, messages, variables: options.variables ?? {} }, 201);
  await finished;
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const view = await api('GET', `/api/threads/${id}`, undefined, 200);
    if (view.last_error) throw new Error(`thread ${id} failed: ${view.last_error}`);
    if (view.status === 'idle') break;
    if (Date.now() > deadline) throw new Error(`thread ${id} still ${view.status} after its last answer`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const gaps = model.gaps(nonce);
  if (gaps.length !== rounds) throw new Error(`thread ${id}: ${gaps.length} rounds timed, expected ${rounds}`);
  return { gaps, bodyBytes: model.bodySizes(nonce) };
}

/**
 * One Floor object doing `rounds` + 1 requests, so `rounds` gaps between them.
 * @returns {Promise<Sample>}
 * @param {number} rounds
 */
async function runFloor(rounds) {
  const nonce = randomUUID();
  const response = await fetch(`${dev.url}/floor/${nonce}?rounds=${rounds + 1}`, { method: 'POST' });
  if (!response.ok) throw new Error(`floor run failed: ${response.status} ${await response.text()}`);
  const gaps = model.gaps(nonce);
  if (gaps.length !== rounds) throw new Error(`floor: ${gaps.length} rounds timed, expected ${rounds}`);
  return { gaps, bodyBytes: model.bodySizes(nonce) };
}

/**
 * Alternating user and assistant messages ending with the user message that starts the run.
 * @param {number} length
 * @param {string} nonce
 * @param {number} rounds
 * @param {{ program?: number, tool?: string }} options
 */
function history(length, nonce, rounds, { program, tool }) {
  return Array.from({ length }, (_, index) => {
    const fromEnd = length - 1 - index;
    const calls = `${program === undefined ? '' : ` program:${program}`}${tool === undefined ? '' : ` tool:${tool}`}`;
    if (fromEnd === 0) return { role: 'user', content: `bench ${nonce} rounds:${rounds}${calls}` };
    const role = fromEnd % 2 === 0 ? 'user' : 'assistant';
    return { role, content: `Message ${index} of an earlier conversation, about as long as a short chat reply.` };
  });
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} json
 * @param {number} expected
 */
async function api(method, path, json, expected) {
  const response = await fetch(`${dev.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}
