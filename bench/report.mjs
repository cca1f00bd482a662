/**
 * The benchmark's report: the machine it ran on, and bench/RESULTS.md around the scenarios' sections:
 * the date and the run's length, how everything was measured, and every target with whether this run
 * met it.
 */
import { readFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { table, verdict } from './format.mjs';

/** @typedef {{ cpu: string, cores: number, memoryGiB: number, node: string, wrangler: string }} Machine */

/** @returns {Promise<Machine>} */
export async function describeMachine() {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const wranglerPackage = new URL('../node_modules/wrangler/package.json', import.meta.url);
  const wrangler = JSON.parse(await readFile(wranglerPackage, 'utf8')).version;
  return { cpu, cores: cpus().length, memoryGiB: totalmem() / 2 ** 30, node: process.version, wrangler };
}

/**
 * @param {object} results
 * @param {string} results.date
 * @param {Machine} results.machine
 * @param {number} results.elapsedSeconds
 * @param {number} results.repetitions
 * @param {{ name: string, seconds: number, section: import('./format.mjs').Section }[]} results.scenarios
 */
export function renderResults({ date, machine, elapsedSeconds, repetitions, scenarios }) {
  const targets = scenarios.flatMap(({ section }) => section.targets);
  return `# Benchmark results

Run on ${date} by \`npm run bench\` (${elapsedSeconds.toFixed(0)} s in all).

Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB memory;
Node ${machine.node}, wrangler ${machine.wrangler} (\`wrangler dev\`, local workerd).

## How it was measured

- \`bench/worker.ts\` serves the runtime with agents whose tool, \`noop\`, returns \`ok\` at once, beside
  the Floor object (\`bench/floor.ts\`), under one \`wrangler dev\` serving a bundle built once at start
  (the scale and restart scenarios start their own). It has the Tenant object's binding (\`TENANTS\`) a
  deployed Worker has, so requests, turns and model calls pass their tenant's limits and quotas as
  there, none of them set unless a section says so. Requests pass wrangler's proxy (a second workerd)
  as they do under \`npm run dev\`. wrangler's DevTools inspector is left detached, as in production:
  attached, it has workerd report every request and subrequest to it and buffers the reports until a
  DevTools window connects, which slowed a floor round about threefold and, at scale, grew wrangler's
  proxy by a gigabyte and failed requests with \`Too many open files\`.
  The model is a local server (\`bench/model-server.mjs\`) that answers at once, in each provider's
  protocol with the test servers' bytes: a \`noop\` call per step until the turn holds the tool results
  its user message asks for, then the text \`done\`. It stamps every exchange: when a request has fully
  arrived, when the last byte of its answer was handed to the OS. It runs on a worker thread of its own
  (\`bench/model-server-http.mjs\`), so the client's work (reading a WebSocket's frames, polling)
  never delays a stamp.
- **A round** is the gap from the end of one answer to the arrival of the next request: the client's
  own work for a tool round. **A turn** is timed by the benchmark's client as a user sees it (each
  section says from what to what), on the same clock as the model server, so it splits into the time
  before the first model request, the rounds, the model's own time, and the time after the last answer.
- **The floor** (\`bench/floor.ts\`) is a bare Durable Object doing per round only what any agent loop
  must: a streamed chat-completions request carrying the conversation so far (system prompt, the
  user's message, every tool call and result, the tool's definition), the answer's event stream parsed
  with eventsource-parser and read to the body's end (so, like the runtime, it reuses the connection
  for the next round), two SQLite inserts (the assistant message, the tool result). It sends the
  same run text, so the model server answers and times it exactly as it does the runtime.
- **Repetitions**: each comparison runs ${repetitions} repetitions; in each, every arm runs a few times, the arms
  taking turns run by run (rotating order) so drift on a shared machine hits all alike. A ratio is
  taken per repetition, between the two arms' medians in that repetition, and reported as its median
  over repetitions with the interquartile range (IQR) and the extremes; targets are judged on the
  median ratio. Every comparison follows a warm-up run of each arm. Quantiles interpolate linearly.
- **Cold start** runs no wrangler dev: the Workers are built once as \`wrangler deploy\` builds them
  (\`wrangler deploy --dry-run --outdir\`) and their upload sized as wrangler reports it (all modules,
  gzip at node:zlib's default level). Each start is then a new workerd process, so a new isolate with
  empty state, run on the built bundle by the Miniflare wrangler dev runs, with the bindings of the
  Worker's wrangler.toml, timed from asking for the process to its first answers, with the CPU time the
  workerd process used by then (\`/proc/<pid>/stat\`). Its baseline is a
  trivial Worker on the same configuration (\`bench/cold-start-baseline.ts\`), started in turn with the
  runtime, so the ratio and the difference are taken between starts made side by side.
- **The bill** counts billable units where they are spent, in a wrangler dev of its own whose benchmark
  Worker wraps its bindings (\`bench/meter.ts\`, switched on by \`BENCH_METER=1\` only there): the
  Thread and Tenant objects' SQLite cursors (\`rowsRead\`, \`rowsWritten\`), D1 results' \`meta\`, R2
  calls, Durable Object stub calls, alarm runs and WebSocket messages, requests to the Worker. Counts
  are exact and do not depend on the machine; its CPU and duration figures do.
- **The profile** samples the Worker's isolate with V8's profiler through wrangler dev's DevTools
  inspector (\`bench/cpu-profile.mjs\`), in a wrangler dev of its own serving the benchmark Worker
  unminified, and names each sample's place by the bundle's source markers. wrangler dev runs the
  Worker, its objects and the local D1 in one process, and the local D1's own work shows up under the
  D1 client's functions (\`toJson\`, \`_send\`) and the first code to run after a D1 call returns
  (the index outbox's \`pending\` and \`sent\`, \`setSoon\`): deployed, D1 is a remote service. The
  attached inspector slows everything: it is there to say where time goes, not how much.
- Timings on a shared VM are noisy: compare ratios measured in the same run rather than absolute
  milliseconds across runs.

${table(
  ['scenario', 'seconds'],
  scenarios.map(({ name, seconds }) => [name, seconds.toFixed(0)]),
)}

## Targets

${table(
  ['target', 'measured', 'met'],
  targets.map(({ target, measured, met }) => [target, measured, verdict(met)]),
  'lrc',
)}

${scenarios.map(({ section }) => section.markdown).join('\n')}`;
}
