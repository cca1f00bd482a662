/**
 * A built Worker started in a fresh workerd, timed to its first answers: what the cold-start scenario
 * (bench/scenarios/cold-start.mjs) measures. Each start is a new workerd process with a new isolate and
 * empty in-memory state, run by the Miniflare that wrangler dev itself runs (resolved from wrangler's
 * own dependencies, so the two cannot differ), on the bindings wrangler reads from the Worker's
 * wrangler.toml. Nothing is bundled here: the bundle is built once beforehand, as `wrangler deploy`
 * builds it, so a start costs only what a fresh runtime costs.
 *
 * Miniflare is handed the bundle's modules by name rather than asked to find them: to find them it
 * parses the whole bundle in Node, seconds of work that no deployed Worker pays.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { cpuMs } from './workerd-process.mjs';

const fromWrangler = createRequire(createRequire(import.meta.url).resolve('wrangler'));
/** @type {typeof import('miniflare')} */
const { Miniflare } = fromWrangler('miniflare');

/**
 * What one start took, in ms from the moment the process was asked for.
 * @typedef {object} StartTimes
 * @property {number} ready Miniflare reporting workerd ready (the Worker's modules evaluated).
 * @property {number} index The first answer of the cheap route.
 * @property {number} thread The first answer of the thread route, sent right after the cheap one.
 * @property {number} cpu CPU time the workerd process had used by then (user and system), in ms: on a
 *   busy machine a steadier measure of the work a start takes than the wall clock.
 */

/**
 * The routes a start is timed to.
 * @typedef {object} FirstRequests
 * @property {{ path: string, init?: RequestInit }} index A cheap route: no Durable Object.
 * @property {{ path: string, init?: RequestInit, status: number }} thread A route creating a thread: the first Durable Object.
 */

/**
 * @param {object} options
 * @param {string} options.config The Worker's wrangler.toml, for its bindings.
 * @param {string} options.outdir The bundle `wrangler deploy --dry-run --outdir` wrote.
 * @param {Record<string, string>} options.vars
 * @param {FirstRequests} options.requests
 * @returns {Promise<StartTimes>}
 */
export async function timeFreshStart({ config, outdir, vars, requests }) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
  const modules = await bundleModules(outdir);
  const started = performance.now();
  const miniflare = new Miniflare({
    // No lookup of Cloudflare's `request.cf` object over the internet.
    cf: false,
    workers: [
      {
        ...workerOptions,
        name: 'cold-start',
        modulesRoot: outdir,
        modules,
        bindings: { ...workerOptions.bindings, ...vars },
      },
    ],
  });
  try {
    await miniflare.ready;
    const ready = performance.now() - started;
    const first = await miniflare.dispatchFetch(`http://localhost${requests.index.path}`, requests.index.init);
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`${requests.index.path} answered ${first.status}`);
    const index = performance.now() - started;
    const created = await miniflare.dispatchFetch(`http://localhost${requests.thread.path}`, requests.thread.init);
    const body = await created.text();
    if (created.status !== requests.thread.status) {
      throw new Error(`${requests.thread.path} answered ${created.status}: ${body.slice(0, 500)}`);
    }
    const thread = performance.now() - started;
    return { ready, index, thread, cpu: workerdPids().reduce((sum, pid) => sum + cpuMs(pid), 0) };
  } finally {
    await miniflare.dispose();
  }
}

/** The workerd processes this process started: Miniflare runs one, as its direct child. */
function workerdPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readFileSafely(`/proc/${entry}/stat`);
    // The parent pid is the second field after the command name's closing ")".
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== process.pid) continue;
    if (readFileSafely(`/proc/${entry}/cmdline`).split('\0')[0]?.endsWith('/workerd')) pids.push(Number(entry));
  }
  return pids;
}

/** @param {string} path */
function readFileSafely(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The bundle's JavaScript modules, its entry (worker.js) first, as Miniflare takes them.
 * @param {string} outdir
 */
async function bundleModules(outdir) {
  const names = (await readdir(outdir)).filter((name) => name.endsWith('.js') || name.endsWith('.mjs'));
  names.sort((a, b) => Number(b === 'worker.js') - Number(a === 'worker.js') || a.localeCompare(b));
  return names.map((name) => /** @type {const} */ ({ type: 'ESModule', path: join(outdir, name) }));
}
