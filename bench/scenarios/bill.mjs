/**
 * The bill: what a turn runs up on Cloudflare's bill, per tool round and per 10-round turn, priced
 * per 1,000 ten-round turns. It runs a wrangler dev of its own with `BENCH_METER=1`, which switches
 * on the benchmark Worker's meter (bench/meter.ts: the Thread and Tenant objects' SQLite cursors, D1
 * results' meta, R2 calls, Durable Object stub calls, alarms and WebSocket messages, requests to the
 * Worker), so no other scenario pays for counting.
 *
 * A turn is a new conversation as a user has it: `POST /api/threads` with the user's message, the
 * thread's WebSocket opened at once and read until the turn's `idle` frame. After it the meter is read
 * until a read finds nothing more (writes the thread makes off the turn's path, such as the D1 index,
 * land in the turn that made them). Turns of 1 and of 10 tool rounds alternate; a tool round's units
 * are the difference of their medians over the 9 rounds between them. CPU time is that of the workerd
 * process running the Worker and its objects (/proc/<pid>/stat, in 10 ms ticks, so it is summed over
 * all turns of a kind and divided).
 */
import { benchClient } from '../client.mjs';
import { ms, table } from '../format.mjs';
import { median } from '../stats.mjs';
import { cpuMs, workerdProcesses } from '../workerd-process.mjs';

/** Turns of each length measured (after one warm-up of each). */
const TURNS = 7;
const LONG = 10;
const SHORT = 1;
/** Wait between reads of the meter while the thread still writes after its turn. */
const SETTLE_MS = 100;
/**
 * The rows a tool round wrote on this scenario before the frames, messages, key-value rows, tool
 * journal and usage totals were made to write fewer (24): the target is at most half of it. What a
 * round may write now is in docs/observability.md ("What a turn costs"), held by a workers test
 * (test/workers/turn-cost.test.ts).
 */
const ROWS_WRITTEN_BEFORE = 24;

/**
 * Cloudflare's published prices (USD), Workers Paid plan, beyond each plan's included monthly usage
 * (so the marginal cost of a turn). Read on the date below from developers.cloudflare.com: Workers
 * pricing, Durable Objects pricing (compute, and SQLite storage), D1 pricing, R2 pricing.
 */
const PRICES_READ_ON = '2026-11-27';
const PRICES = {
  workerRequest: 0.3 / 1e6,
  workerCpuMs: 0.02 / 1e6,
  objectRequest: 0.15 / 1e6,
  /** An incoming WebSocket message is billed as 1/20 of a request. */
  webSocketMessage: 0.15 / 1e6 / 20,
  gbSecond: 12.5 / 1e6,
  sqliteRowRead: 0.001 / 1e6,
  sqliteRowWritten: 1 / 1e6,
  d1RowRead: 0.001 / 1e6,
  d1RowWritten: 1 / 1e6,
  r2ClassA: 4.5 / 1e6,
  r2ClassB: 0.36 / 1e6,
};
/** A Durable Object's duration is billed at 128 MB whatever it uses. */
const OBJECT_GB = 0.125;

/**
 * @typedef {{ worker: { requests: number }, sqlite: { queries: number, rowsRead: number, rowsWritten: number, alarmWrites: number },
 *   d1: { queries: number, rowsRead: number, rowsWritten: number }, r2: { classA: number, classB: number },
 *   durableObjects: { calls: number, alarms: number, webSocketMessages: number } }} Counts
 * @typedef {Record<string, number>} Units One turn's units, flat.
 */

/** @param {Counts} counts @returns {Units} */
function flatten(counts) {
  return {
    workerRequests: counts.worker.requests,
    sqliteQueries: counts.sqlite.queries,
    sqliteRowsRead: counts.sqlite.rowsRead,
    sqliteRowsWritten: counts.sqlite.rowsWritten + counts.sqlite.alarmWrites,
    alarmWrites: counts.sqlite.alarmWrites,
    d1Queries: counts.d1.queries,
    d1Calls: counts.d1.calls,
    d1RowsRead: counts.d1.rowsRead,
    d1RowsWritten: counts.d1.rowsWritten,
    r2ClassA: counts.r2.classA,
    r2ClassB: counts.r2.classB,
    objectCalls: counts.durableObjects.calls,
    alarms: counts.durableObjects.alarms,
    webSocketMessages: counts.durableObjects.webSocketMessages,
  };
}

/** @param {Units} a @param {Units} b */
const add = (a, b) => Object.fromEntries(Object.keys(b).map((key) => [key, (a[key] ?? 0) + b[key]]));
const isEmpty = (/** @type {Units} */ units) =>
  Object.entries(units).every(([key, value]) => key === 'sqliteQueries' || value === 0);

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function bill({ model, key, startDev }) {
  const dev = await startDev({ vars: { BENCH_METER: '1' } });
  try {
    const client = benchClient({ url: dev.url, key, model });
    const runtime = (await workerdProcesses(dev.pid, dev.port)).find((process) => process.role === 'runtime');
    if (!runtime) throw new Error('the workerd process of the Worker was not found');
    /** @type {Record<number, Record<string, number>>} Rows written by statement text, over all turns of a length. */
    const writes = { [SHORT]: {}, [LONG]: {} };
    /** @type {Record<number, Record<string, number>>} D1 statements run, by text, over all turns of a length. */
    const d1Runs = { [SHORT]: {}, [LONG]: {} };
    let counting = 0;
    const readMeter = async () => {
      const read = await client.api('GET', '/bench/meter');
      for (const [text, { rowsWritten }] of Object.entries(read.writesByStatement)) {
        if (counting) writes[counting][text] = (writes[counting][text] ?? 0) + rowsWritten;
      }
      for (const [text, runs] of Object.entries(read.d1ByStatement)) {
        if (counting) d1Runs[counting][text] = (d1Runs[counting][text] ?? 0) + Number(runs);
      }
      return flatten(/** @type {Counts} */ (read));
    };
    /** One turn's units, its CPU ms and its wall time. @param {number} rounds */
    const turn = async (rounds) => {
      counting = 0;
      await readMeter();
      counting = rounds;
      const cpuBefore = cpuMs(runtime.pid);
      const timing = await client.createdTurn('bench', rounds, 'stream');
      let units = await readMeter();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const more = await readMeter();
        if (isEmpty(more)) break;
        units = add(units, more);
      }
      return { units, cpu: cpuMs(runtime.pid) - cpuBefore, wall: timing.total };
    };
    await turn(SHORT);
    await turn(LONG);
    writes[SHORT] = {};
    writes[LONG] = {};
    d1Runs[SHORT] = {};
    d1Runs[LONG] = {};
    /** @type {Record<number, { units: Units, cpu: number, wall: number }[]>} */
    const runs = { [SHORT]: [], [LONG]: [] };
    for (let index = 0; index < TURNS; index++) {
      for (const rounds of index % 2 === 0 ? [SHORT, LONG] : [LONG, SHORT]) runs[rounds].push(await turn(rounds));
    }
    return report(runs, writes, d1Runs);
  } catch (error) {
    console.error(`wrangler dev output:\n${dev.output()}`);
    throw error;
  } finally {
    await dev.stop();
  }
}

/**
 * @param {Record<number, { units: Units, cpu: number, wall: number }[]>} runs
 * @param {Record<number, Record<string, number>>} writes
 * @param {Record<number, Record<string, number>>} d1Runs
 */
function report(runs, writes, d1Runs) {
  /** @param {number} rounds @param {string} unit */
  const med = (rounds, unit) => median(runs[rounds].map((run) => run.units[unit] ?? 0));
  /** @param {number} rounds @param {(run: { cpu: number, wall: number }) => number} pick */
  const mean = (rounds, pick) => runs[rounds].reduce((sum, run) => sum + pick(run), 0) / runs[rounds].length;
  const units = Object.keys(runs[LONG][0].units);
  /** @param {string} unit */
  const perRound = (unit) => (med(LONG, unit) - med(SHORT, unit)) / (LONG - SHORT);
  const cpuLong = mean(LONG, (run) => run.cpu);
  const cpuPerRound = (cpuLong - mean(SHORT, (run) => run.cpu)) / (LONG - SHORT);
  const wallLong = mean(LONG, (run) => run.wall);
  const labels = {
    workerRequests: 'Requests to the Worker',
    objectCalls: 'Durable Object requests (fetch and RPC calls)',
    alarms: 'Durable Object alarm runs',
    webSocketMessages: 'WebSocket messages received by objects',
    sqliteQueries: 'SQLite statements',
    sqliteRowsRead: 'SQLite rows read',
    sqliteRowsWritten: 'SQLite rows written (alarms set or deleted included)',
    alarmWrites: '… of which alarms set or deleted',
    d1Queries: 'D1 queries',
    d1Calls: 'D1 calls (round trips; a batch is one)',
    d1RowsRead: 'D1 rows read',
    d1RowsWritten: 'D1 rows written',
    r2ClassA: 'R2 class A operations',
    r2ClassB: 'R2 class B operations',
  };
  const count = (/** @type {number} */ value) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  const unitRows = units.map((unit) => [
    /** @type {Record<string, string>} */ (labels)[unit] ?? unit,
    count(perRound(unit)),
    count(med(LONG, unit)),
    count(med(SHORT, unit)),
  ]);
  unitRows.push([
    'CPU of the workerd running the Worker and its objects (ms)',
    ms(cpuPerRound, 2),
    ms(cpuLong, 1),
    ms(
      mean(SHORT, (run) => run.cpu),
      1,
    ),
  ]);
  unitRows.push([
    'Wall time, POST to idle seen (ms)',
    '–',
    ms(wallLong, 0),
    ms(
      mean(SHORT, (run) => run.wall),
      0,
    ),
  ]);

  const turn = (/** @type {string} */ unit) => med(LONG, unit);
  const thousand = 1000;
  const costs = [
    ['Worker requests', turn('workerRequests') * PRICES.workerRequest],
    ["Worker CPU (all of workerd's CPU, an upper bound)", cpuLong * PRICES.workerCpuMs],
    [
      'Durable Object requests',
      (turn('objectCalls') + turn('alarms')) * PRICES.objectRequest +
        turn('webSocketMessages') * PRICES.webSocketMessage,
    ],
    ["Durable Object duration (the turn's wall time here, at 128 MB)", (wallLong / 1000) * OBJECT_GB * PRICES.gbSecond],
    ['SQLite rows read', turn('sqliteRowsRead') * PRICES.sqliteRowRead],
    ['SQLite rows written', turn('sqliteRowsWritten') * PRICES.sqliteRowWritten],
    ['D1 rows read', turn('d1RowsRead') * PRICES.d1RowRead],
    ['D1 rows written', turn('d1RowsWritten') * PRICES.d1RowWritten],
    ['R2 operations', turn('r2ClassA') * PRICES.r2ClassA + turn('r2ClassB') * PRICES.r2ClassB],
  ].map(([label, cost]) => /** @type {[string, number]} */ ([String(label), Number(cost) * thousand]));
  const total = costs.reduce((sum, [, cost]) => sum + cost, 0);
  const dollars = (/** @type {number} */ value) => `$${value.toFixed(4)}`;
  const rowsWritten = perRound('sqliteRowsWritten');
  const statements = [...new Set([...Object.keys(writes[LONG]), ...Object.keys(writes[SHORT])])]
    .map((text) => {
      const long = (writes[LONG][text] ?? 0) / runs[LONG].length;
      const short = (writes[SHORT][text] ?? 0) / runs[SHORT].length;
      return { text, round: (long - short) / (LONG - SHORT), long };
    })
    .sort((a, b) => b.round - a.round || b.long - a.long);
  const statementRows = statements.map(({ text, round, long }) => [
    `\`${text.replaceAll('|', '\\|')}\``,
    round.toFixed(1),
    long.toFixed(1),
  ]);
  const d1Rows = [...new Set([...Object.keys(d1Runs[LONG]), ...Object.keys(d1Runs[SHORT])])]
    .map((text) => [
      text,
      (d1Runs[LONG][text] ?? 0) / runs[LONG].length,
      (d1Runs[SHORT][text] ?? 0) / runs[SHORT].length,
    ])
    .sort((a, b) => Number(b[1]) - Number(a[1]))
    .map(([text, long, short]) => [
      `\`${String(text).replaceAll('|', '\\|')}\``,
      Number(long).toFixed(1),
      Number(short).toFixed(1),
    ]);
  const markdown = `## The bill: what a turn costs

A wrangler dev of its own with the meter on (\`bench/meter.ts\`). A turn: \`POST /api/threads\` with the
user's message, the thread's WebSocket read until \`idle\`, then the meter read until the thread writes
nothing more. ${TURNS} turns of ${SHORT} and of ${LONG} tool rounds, alternating, after a warm-up of each;
medians of each kind; a tool round is their difference over ${LONG - SHORT} rounds. CPU is the mean per turn of
the workerd process that runs the Worker and its objects.

${table(['unit', 'per tool round', `per ${LONG}-round turn`, `per ${SHORT}-round turn`], unitRows)}

Rows written per tool round: **${count(rowsWritten)}**${ROWS_WRITTEN_BEFORE > 0 ? ` (${ROWS_WRITTEN_BEFORE} before they were reduced)` : ''}. What writes them (the Thread and
Tenant objects' statements, mean rows written; alarms not included):

${table(['statement', 'per tool round', `per ${LONG}-round turn`], statementRows)}

The D1 statements a turn runs (the thread index and the usage index; mean per turn):

${table(['statement', `per ${LONG}-round turn`, `per ${SHORT}-round turn`], d1Rows)}

### Per 1,000 ten-round turns

At Cloudflare's published prices read on ${PRICES_READ_ON} (Workers Paid; beyond the included monthly
usage): Workers $0.30 per million requests and $0.02 per million CPU ms; Durable Objects $0.15 per
million requests (an incoming WebSocket message is 1/20 of one; an alarm run is one) and $12.50 per
million GB-s of duration; SQLite in Durable Objects and D1 alike $0.001 per million rows read and $1.00
per million rows written; R2 $4.50 per million class A and $0.36 per million class B operations.

${table(['', 'USD per 1,000 turns'], [...costs.map(([label, cost]) => [label, dollars(cost)]), ['**Total**', `**${dollars(total)}**`]])}

Duration is billed while the object is active, and a turn's object is active while it waits for the
model: here the model answers at once; with a real model add $${(OBJECT_GB * PRICES.gbSecond * thousand).toFixed(4)} per 1,000 turns for each
second a turn waits for its model.
`;
  return {
    markdown,
    targets: [
      {
        target: 'Rows written per tool round at most half of those before the cut',
        measured: `${count(rowsWritten)}${ROWS_WRITTEN_BEFORE > 0 ? ` (before: ${ROWS_WRITTEN_BEFORE})` : ''}; ${dollars(total)} per 1,000 ten-round turns`,
        met: ROWS_WRITTEN_BEFORE > 0 && rowsWritten <= ROWS_WRITTEN_BEFORE / 2,
      },
    ],
  };
}
