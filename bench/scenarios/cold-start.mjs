/**
 * Cold start: what a fresh runtime costs before its first answers, and the size of the bundle a deploy
 * uploads. The example Worker (wrangler.toml) is built as `npm run deploy` builds it (minified) and as
 * a plain `wrangler deploy` would, the benchmark Worker (bench/wrangler.toml, minified) as its
 * configuration asks, and each upload sized as wrangler reports it (bench/built-worker.mjs).
 * The benchmark Worker's bundle is then started again and again in a fresh workerd
 * (bench/fresh-workerd.mjs), beside a trivial Worker of the same configuration
 * (bench/cold-start-baseline.ts), the two taking turns start by start; each start is timed to the
 * first answer of `GET /` (no Durable Object) and then of `POST /api/threads` (the first Durable
 * Object). Ratios are taken per repetition, since absolute start times on a shared machine drift.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorker } from '../built-worker.mjs';
import { kib, ms, spreadCells, table, times } from '../format.mjs';
import { timeFreshStart } from '../fresh-workerd.mjs';
import { repeat } from '../repetitions.mjs';
import { median, spread } from '../stats.mjs';

/** The upload's gzip size before startup was looked at, as wrangler reported it. */
const BEFORE_GZIP_KIB = 1005;
const KEY = 'bench-key';
const BENCH_CONFIG = 'bench/wrangler.toml';

/**
 * @param {string} agent
 * @returns {import('../fresh-workerd.mjs').FirstRequests}
 */
const firstRequests = (agent) => ({
  index: { path: '/', init: { headers: { accept: 'application/json' } } },
  thread: {
    path: '/api/threads',
    init: {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent }),
    },
    status: 201,
  },
});

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function coldStart({ repetitions }) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-cold-start-'));
  try {
    const example = await buildWorker({ config: 'wrangler.toml', outdir: join(dir, 'example'), minify: true });
    const unminified = await buildWorker({ config: 'wrangler.toml', outdir: join(dir, 'unminified'), minify: false });
    const runtime = await buildWorker({ config: BENCH_CONFIG, outdir: join(dir, 'bench') });
    const baseline = await buildWorker({
      config: BENCH_CONFIG,
      outdir: join(dir, 'baseline'),
      script: 'bench/cold-start-baseline.ts',
    });
    const start = (/** @type {string} */ outdir, /** @type {string} */ agent) => () =>
      timeFreshStart({ config: BENCH_CONFIG, outdir, vars: { API_KEYS: KEY }, requests: firstRequests(agent) });
    const arms = { runtime: start(runtime.outdir, 'bench'), baseline: start(baseline.outdir, 'baseline') };
    // A warm-up start of each, so both read their files from the page cache.
    for (const arm of Object.values(arms)) await arm();
    const results = await repeat({ repetitions, runs: 1, arms });
    return report({ example, unminified, runtime, baseline }, results, repetitions);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @typedef {import('../fresh-workerd.mjs').StartTimes} StartTimes */

/**
 * @param {Record<'example' | 'unminified' | 'runtime' | 'baseline', import('../built-worker.mjs').BuiltWorker>} built
 * @param {import('../repetitions.mjs').Repeated<StartTimes>} results
 * @param {number} repetitions
 * @returns {import('../format.mjs').Section}
 */
function report(built, results, repetitions) {
  /** @param {'runtime' | 'baseline'} arm @param {keyof StartTimes} point */
  const each = (arm, point) => (results[arm] ?? []).map((runs) => /** @type {StartTimes} */ (runs[0])[point]);
  /** @type {(keyof StartTimes)[]} */
  const points = ['ready', 'index', 'thread', 'cpu'];
  /** Per repetition, the runtime's time and the baseline's combined; their spread over repetitions. */
  const paired = (/** @type {(runtime: number, baseline: number) => number} */ combine) =>
    Object.fromEntries(
      points.map((point) => {
        const baseline = each('baseline', point);
        return [point, spread(each('runtime', point).map((value, index) => combine(value, baseline[index] ?? NaN)))];
      }),
    );
  const ratios = paired((runtime, baseline) => runtime / baseline);
  const own = paired((runtime, baseline) => runtime - baseline);
  const labels = {
    ready: 'workerd ready (modules evaluated)',
    index: 'first answer of `GET /`',
    thread: 'first answer of `POST /api/threads` (first Durable Object)',
    cpu: '… the CPU time workerd used until then',
  };
  const sizeRow = (/** @type {string} */ name, /** @type {import('../built-worker.mjs').BuiltWorker} */ worker) => [
    name,
    String(worker.modules),
    kib(worker.bytes),
    `**${kib(worker.gzipBytes)}**`,
  ];
  const exampleGzipKib = built.example.gzipBytes / 1024;
  const markdown = `## Cold start

The upload a deploy sends, built by \`wrangler deploy --dry-run\` and sized as wrangler reports it
(every module concatenated, gzip at node:zlib's default level); Cloudflare's limit on the gzip size
is 3 MiB on the Free plan and 10 MiB on paid plans. Before startup was looked at, the example Worker's
gzip size was ${BEFORE_GZIP_KIB.toLocaleString('en')} KiB (deployed unminified).

${table(
  ['Worker', 'modules', 'size', 'gzip'],
  [
    sizeRow('The example Worker (`wrangler.toml`), minified as `npm run deploy` builds it', built.example),
    sizeRow('The example Worker, not minified (`wrangler deploy` without `--minify`)', built.unminified),
    sizeRow('The benchmark Worker (`bench/wrangler.toml`, minified)', built.runtime),
    sizeRow('The baseline Worker (`bench/cold-start-baseline.ts`)', built.baseline),
  ],
)}

Startup: ${repetitions} repetitions of one start each of the benchmark Worker's bundle and of the baseline, a
trivial Worker on the same configuration (a JSON answer at \`/\`; a D1 insert and a fresh Durable Object's
SQLite insert at \`POST /api/threads\`), taking turns, after a warm-up start of each. Every start is a new
workerd process (a new isolate, empty state) run by wrangler's own Miniflare on the bundle built above,
timed from asking for the process to: workerd ready, the first answer of \`GET /\`, then the first answer
of \`POST /api/threads\` creating a thread; and the CPU time the workerd process had used by then (user
and system, from \`/proc/<pid>/stat\`), which a busy machine disturbs less than the wall clock. Times in
ms; *runtime's own* is the runtime's time less the baseline's in the same repetition.

${table(
  [
    'from process start to',
    'runtime (median)',
    'baseline (median)',
    "runtime's own (median)",
    'runtime / baseline',
    'IQR',
    'min – max',
  ],
  points.map((point) => [
    labels[point],
    ms(median(each('runtime', point)), 0),
    ms(median(each('baseline', point)), 0),
    ms(/** @type {import('../stats.mjs').Spread} */ (own[point]).median, 0),
    ...spreadCells(/** @type {import('../stats.mjs').Spread} */ (ratios[point]), times),
  ]),
)}
`;
  return {
    markdown,
    targets: [
      {
        target: `Bundle gzip size (the example Worker, as \`npm run deploy\` builds it) no larger than the ${BEFORE_GZIP_KIB.toLocaleString('en')} KiB before`,
        measured: `${exampleGzipKib.toFixed(1)} KiB (${kib(built.example.bytes)} raw; unminified ${kib(built.unminified.gzipBytes)})`,
        met: exampleGzipKib <= BEFORE_GZIP_KIB,
      },
    ],
  };
}
