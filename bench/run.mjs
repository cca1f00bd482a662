/**
 * `npm run bench`: every scenario of bench/scenarios/ in one run, written to bench/RESULTS.md (and
 * printed). One `wrangler dev` serves the benchmark Worker (bench/worker.ts: the runtime and the Floor
 * object) for all scenarios but the last four, which start wrangler devs of their own (or none). The model
 * (bench/model-server.mjs), a local MCP server and a local identity provider (bench/identity-provider.mjs,
 * whose tokens the Worker accepts) run in this process. wrangler dev serves one bundle built at
 * start, so source edits during the run cannot restart the Worker.
 *
 * The scenarios, in order:
 *   per round     the runtime's tool round against the floor's;
 *   end to end    a 1-round and a 10-round turn from POST to idle, against the floor end to end;
 *   turn start    the requests that make up a new thread's time before its first model request;
 *   sign-in       what signing in costs a request, for each kind of credential, beside no sign-in;
 *   history       a turn on a 3,000-message thread against one on a 10-message thread;
 *   providers     each provider adapter's round against the OpenAI-compatible client's;
 *   sandbox       what `state.runCode` and a tool call from a program cost;
 *   MCP           what a call of an MCP server's tool costs beside a local tool;
 *   fan-out       100 WebSocket clients on one thread through a turn;
 *   tracing       a tool round and a turn with spans stored and sent to a local collector, beside
 *                 tracing switched off (two wrangler devs of their own, side by side);
 *   scale         1,000 threads at once, 10 rounds each, beside 1,000 Floor turns at once;
 *   bill          the billable units of a tool round and of a 10-round turn (Durable Object and
 *                 SQLite, D1, R2, requests, CPU), priced per 1,000 turns (a wrangler dev of its own
 *                 with the meter of bench/meter.ts on);
 *   profile       where a tool round's time goes: the Worker's isolate profiled through wrangler
 *                 dev's inspector during runtime rounds, then Floor rounds (a wrangler dev of its own,
 *                 unminified);
 *   restart       a turn resuming by its alarm after wrangler dev is killed and started again;
 *   cold start    the bundle's size, and a fresh workerd's time to its first answers beside a trivial
 *                 Worker's (no wrangler dev: each start is a workerd of its own).
 *
 * `npm run bench -- <name>…` runs only the named scenarios (the names are listed in SCENARIOS, e.g.
 * `npm run bench -- cold-start`) and prints their sections without writing bench/RESULTS.md, which
 * holds only whole runs.
 */
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { startMcpServer } from '../harness/mcp-servers.mjs';
import { startWranglerDev } from '../harness/wrangler-dev.mjs';
import { benchClient } from './client.mjs';
import { startIdentityProvider } from './identity-provider.mjs';
import { startTimedModelServer } from './model-server.mjs';
import { describeMachine, renderResults } from './report.mjs';
import { bill } from './scenarios/bill.mjs';
import { coldStart } from './scenarios/cold-start.mjs';
import { endToEnd } from './scenarios/end-to-end.mjs';
import { fanOut } from './scenarios/fan-out.mjs';
import { history } from './scenarios/history.mjs';
import { mcp as mcpTools } from './scenarios/mcp.mjs';
import { profile } from './scenarios/profile.mjs';
import { providers } from './scenarios/providers.mjs';
import { restart } from './scenarios/restart.mjs';
import { perRound } from './scenarios/rounds.mjs';
import { sandbox } from './scenarios/sandbox.mjs';
import { scale } from './scenarios/scale.mjs';
import { signIn } from './scenarios/sign-in.mjs';
import { tracing } from './scenarios/tracing.mjs';
import { turnStart } from './scenarios/turn-start.mjs';
import { workerdProcesses } from './workerd-process.mjs';

const KEY = 'bench-key';
/** The bootstrap admin key, which makes the keys and sets the limits the sign-in scenario uses. */
const ADMIN_KEY = 'bench-admin-key';
/** Repetitions of every comparison. */
const REPETITIONS = 7;

/**
 * What a scenario is handed.
 * @typedef {object} Bench
 * @property {ReturnType<typeof benchClient>} client The API of the shared wrangler dev.
 * @property {import('./client.mjs').ModelServer} model
 * @property {import('../harness/wrangler-dev.mjs').WranglerDev} dev The shared wrangler dev.
 * @property {{ runtime: number, proxy: number | null }} workerd The pids of its workerd processes: the one
 *   running the Worker and wrangler's proxy in front of it.
 * @property {string} url Its origin.
 * @property {string} key The API key.
 * @property {string} adminKey The bootstrap admin key (`ADMIN_KEY`).
 * @property {import('./identity-provider.mjs').IdentityProvider} identityProvider The identity provider whose
 *   tokens the Worker accepts.
 * @property {string} mcpUrl The local MCP server.
 * @property {number} repetitions
 * @property {(options?: import('../harness/wrangler-dev.mjs').WranglerDevOptions) => Promise<import('../harness/wrangler-dev.mjs').WranglerDev>} startDev
 *   Another wrangler dev of the benchmark Worker, on the same model server.
 */

/** @typedef {(bench: Bench) => Promise<import('./format.mjs').Section>} Scenario */

/** @type {[string, string, Scenario][]} Each scenario's name on the command line, title and run. */
const ON_SHARED_DEV = [
  ['per-round', 'Per tool round', perRound],
  ['end-to-end', 'End to end', endToEnd],
  ['turn-start', "Where a turn's start goes", turnStart],
  ['sign-in', 'Sign-in', signIn],
  ['history', 'History', history],
  ['providers', 'Provider adapters', providers],
  ['sandbox', 'Sandboxed code', sandbox],
  ['mcp', 'MCP tools', mcpTools],
  ['fan-out', 'Fan-out', fanOut],
];
/** @type {[string, string, Scenario][]} Each on a runtime of its own, alone on the machine. */
const ON_THEIR_OWN = [
  ['tracing', 'Tracing on against off', tracing],
  ['scale', 'Scale', scale],
  ['bill', 'The bill', bill],
  ['profile', "Where a round's time goes", profile],
  ['restart', 'Resume after a crash', restart],
  ['cold-start', 'Cold start', coldStart],
];
const SCENARIOS = [...ON_SHARED_DEV, ...ON_THEIR_OWN];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !SCENARIOS.some(([known]) => known === name));
if (unknown.length > 0) {
  throw new Error(`no scenario ${unknown.join(', ')}; the scenarios: ${SCENARIOS.map(([name]) => name).join(', ')}`);
}
/** @param {[string, string, Scenario][]} list */
const selected = (list) => list.filter(([name]) => chosen.length === 0 || chosen.includes(name));

const started = performance.now();
const model = await startTimedModelServer();
const mcp = await startMcpServer({ tools: 'basic' });
const identityProvider = await startIdentityProvider();
const vars = {
  API_KEYS: KEY,
  ADMIN_KEY,
  ...identityProvider.vars,
  OPENAI_BASE_URL: `${model.origin}/v1`,
  OPENAI_API_KEY: 'bench',
  MODEL: 'bench-model',
  ANTHROPIC_BASE_URL: model.origin,
  ANTHROPIC_API_KEY: 'bench',
  GOOGLE_BASE_URL: model.origin,
  GOOGLE_API_KEY: 'bench',
  WORKERS_AI_URL: `${model.origin}/workers-ai/run`,
  // The local MCP server of `bench-mcp` and the identity provider's key set are development hosts
  // for the egress policy.
  EGRESS_ALLOW_HOSTS: `${new URL(mcp.url).host},${identityProvider.host}`,
};
/** @type {Bench['startDev']} */
const startDev = (options = {}) =>
  startWranglerDev({
    config: 'bench/wrangler.toml',
    snapshot: true,
    inspector: false,
    ...options,
    // A scenario's own variables are added to the shared ones.
    vars: { ...vars, ...options.vars },
  });

/** @type {{ name: string, seconds: number, section: import('./format.mjs').Section }[]} */
const scenarios = [];
/** @param {string} name @param {() => Promise<import('./format.mjs').Section>} run */
async function timed(name, run) {
  const at = performance.now();
  process.stderr.write(`bench: ${name}...`);
  const section = await run();
  const seconds = (performance.now() - at) / 1000;
  process.stderr.write(` ${seconds.toFixed(0)} s\n`);
  scenarios.push({ name, seconds, section });
}

/** @param {Omit<Bench, 'client' | 'dev' | 'workerd' | 'url'>} shared */
async function runOnSharedDev(shared) {
  const dev = await startDev();
  const processes = await workerdProcesses(dev.pid, dev.port);
  const runtime = processes.find((process) => process.role === 'runtime');
  if (!runtime) throw new Error('the workerd process of the Worker was not found');
  /** @type {Bench} */
  const bench = {
    ...shared,
    client: benchClient({ url: dev.url, key: KEY, model }),
    dev,
    workerd: { runtime: runtime.pid, proxy: processes.find((process) => process.role === 'proxy')?.pid ?? null },
    url: dev.url,
  };
  try {
    for (const [, title, scenario] of selected(ON_SHARED_DEV)) await timed(title, () => scenario(bench));
  } catch (error) {
    console.error(`wrangler dev output:\n${dev.output()}`);
    throw error;
  } finally {
    await dev.stop();
  }
  return bench;
}

try {
  const shared = {
    model,
    key: KEY,
    adminKey: ADMIN_KEY,
    identityProvider,
    mcpUrl: mcp.url,
    repetitions: REPETITIONS,
    startDev,
  };
  const bench = selected(ON_SHARED_DEV).length > 0 ? await runOnSharedDev(shared) : /** @type {Bench} */ (shared);
  // Each on a runtime of its own, alone on the machine: the shared one is gone.
  for (const [, title, scenario] of selected(ON_THEIR_OWN)) await timed(title, () => scenario(bench));

  const markdown = renderResults({
    date: new Date().toISOString(),
    machine: await describeMachine(),
    elapsedSeconds: (performance.now() - started) / 1000,
    repetitions: REPETITIONS,
    scenarios,
  });
  if (chosen.length === 0) await writeFile(new URL('./RESULTS.md', import.meta.url), markdown);
  console.log(markdown);
} finally {
  await model.close();
  await mcp.close();
  await identityProvider.close();
}
