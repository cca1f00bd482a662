/**
 * Scale: 1,000 threads started at once on one local workerd, 10 tool rounds each, beside the floor
 * doing the same: 1,000 fresh Floor objects at once, 10 rounds each. Each side runs on a wrangler dev
 * of its own, started for it (so the memory read before is that of an idle Worker, not of what
 * earlier scenarios left behind), after a warm-up of five turns.
 *
 * Runtime: the client issues every `POST /api/threads` (the user's message starting the turn) with
 * at most 100 in flight, only so this machine's own sockets and event loop keep up; the POSTs answer
 * at once and the turns all run concurrently. A turn is timed from sending its POST to seeing it
 * `idle`: the client learns from the model server that the final answer was sent (no request to the
 * Worker), then polls that one thread every 50 ms until it is idle, so polling touches each thread
 * only in its last moments. Floor: a Floor turn is one request that lasts the whole turn, so all
 * 1,000 are in flight at once; a turn is timed from sending it to its answer.
 *
 * Reported: errors (a refused request, a turn that failed or timed out, a turn with the wrong number
 * of model requests: the runtime must have none), throughput in tool rounds per second over the whole
 * run, p50/p99 of turn times and of round gaps under this load, the CPU time the workerd processes
 * used, and the resident memory of the workerd process that runs the Worker (and of wrangler's proxy
 * in front of it) before, at the peak, and at the end.
 */
import { randomUUID } from 'node:crypto';
import { benchClient } from '../client.mjs';
import { ms, table } from '../format.mjs';
import { runText } from '../model-server.mjs';
import { quantile } from '../stats.mjs';
import { cpuMs, residentMiB, sampleResident, workerdProcesses } from '../workerd-process.mjs';

const THREADS = 1000;
const ROUNDS = 10;
/** The runtime's tool rounds per second may be at most this many times fewer than the floor's. */
const THROUGHPUT_TARGET = 1.3;
const IN_FLIGHT = 100;
const POLL_MS = 50;
const TURN_TIMEOUT_MS = 300_000;
const MEMORY_SAMPLE_MS = 250;
const WARM_UP_TURNS = 5;

/**
 * What the turns of one side recorded.
 * @typedef {object} Turns
 * @property {string[]} errors
 * @property {number[]} turnTimes ms, one per completed turn.
 * @property {number[]} gaps Every round gap of the completed turns, ms.
 * @property {number} polls `GET /api/threads/:id` sent (the runtime only).
 * @property {number} issued ms from the first request to the last one sent.
 */

/**
 * @typedef {Turns & { elapsed: number, cpu: { runtime: number, proxy: number }, memory: Memory }} Load
 * @typedef {{ before: number, peak: number, end: number }} Resident MiB.
 * @typedef {{ runtime: Resident, proxy: Resident | null }} Memory
 */

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function scale({ model, key, startDev }) {
  /** @param {(client: ReturnType<typeof benchClient>) => Promise<unknown>} warmUp @param {(client: ReturnType<typeof benchClient>) => Promise<Turns>} turns */
  const onFreshDev = async (warmUp, turns) => {
    const dev = await startDev();
    try {
      const client = benchClient({ url: dev.url, key, model });
      // The Worker's code loaded and compiled before memory is first read.
      for (let turn = 0; turn < WARM_UP_TURNS; turn++) await warmUp(client);
      return await load(dev, () => turns(client));
    } finally {
      await dev.stop();
    }
  };
  const runtime = await onFreshDev(
    (client) => client.createdTurn('bench', ROUNDS, 'poll'),
    (client) => runtimeTurns(client, model),
  );
  const floor = await onFreshDev(
    (client) => client.floorTurn(ROUNDS),
    (client) => floorTurns(client),
  );

  const throughput = (/** @type {Load} */ side) => (side.turnTimes.length * ROUNDS) / (side.elapsed / 1000);
  /** @param {number[]} values @param {number} digits */
  const percentiles = (values, digits = 0) =>
    values.length > 0 ? `${ms(quantile(values, 0.5), digits)} / ${ms(quantile(values, 0.99), digits)}` : '–';
  /** @param {Resident | null} resident */
  const resident = (resident) =>
    resident ? `${ms(resident.before, 0)} / **${ms(resident.peak, 0)}** / ${ms(resident.end, 0)}` : '–';
  /** @param {string} label @param {(side: Load) => string} show */
  const row = (label, show) => [label, show(runtime), show(floor)];
  const markdown = `## Scale: 1,000 threads at once

${THREADS.toLocaleString('en')} turns of ${ROUNDS} tool rounds started at once on one local workerd, each side on a wrangler dev of
its own started for it (after a warm-up of ${WARM_UP_TURNS} turns). Runtime: threads of \`bench\`, every
\`POST /api/threads\` issued with at most ${IN_FLIGHT} in flight (all sent within ${ms(runtime.issued / 1000, 1)} s), the turns running
concurrently; a turn is timed from sending its POST to seeing it \`idle\`: once the model server has sent
its final answer, the client polls that thread every ${POLL_MS} ms (${runtime.polls.toLocaleString('en')} polls, ${ms(runtime.polls / THREADS, 1)} a thread). Floor:
${THREADS.toLocaleString('en')} requests to fresh Floor objects, all in flight at once (a Floor turn is one request); a turn is
timed from sending it to its answer. CPU time from \`/proc/<pid>/stat\`, resident memory VmRSS.

${table(
  ['', 'runtime', 'floor'],
  [
    row(
      'Errors (refused requests, failed or timed-out turns, wrong request counts)',
      (side) => `**${side.errors.length}**`,
    ),
    row('Turns completed', (side) => `${side.turnTimes.length.toLocaleString('en')}`),
    row('Wall time, first request to last turn seen ending (s)', (side) => ms(side.elapsed / 1000, 1)),
    row('Throughput (tool rounds/s)', (side) => `**${ms(throughput(side), 0)}**`),
    row('Turn time p50 / p99 (ms)', (side) => percentiles(side.turnTimes)),
    row('Round gap under this load p50 / p99 (ms)', (side) => percentiles(side.gaps, 1)),
    row('CPU of the workerd running the Worker, per tool round (ms)', (side) =>
      ms(side.cpu.runtime / (THREADS * ROUNDS), 2),
    ),
    row('… its share of one core over the run', (side) => `${ms((100 * side.cpu.runtime) / side.elapsed, 0)}%`),
    row("CPU of wrangler's proxy workerd, per tool round (ms)", (side) => ms(side.cpu.proxy / (THREADS * ROUNDS), 2)),
    row('workerd running the Worker, resident before / peak / end (MiB)', (side) => resident(side.memory.runtime)),
    row("wrangler's proxy workerd, resident before / peak / end (MiB)", (side) => resident(side.memory.proxy)),
  ],
)}
${
  runtime.errors.length + floor.errors.length > 0
    ? `\nErrors by kind (the first of each):\n\n${errorKinds([...runtime.errors, ...floor.errors.map((error) => `floor: ${error}`)])}\n`
    : ''
}`;
  return {
    markdown,
    targets: [
      {
        target: `Scale: ${THREADS.toLocaleString('en')} concurrent ${ROUNDS}-round turns on one workerd without an error`,
        measured: `${runtime.errors.length} errors; ${ms(throughput(runtime), 0)} rounds/s (floor ${ms(throughput(floor), 0)}); turn p50 / p99 ${percentiles(runtime.turnTimes)} ms; peak ${ms(runtime.memory.runtime.peak, 0)} MiB (floor ${ms(floor.memory.runtime.peak, 0)})`,
        met: runtime.errors.length === 0 && runtime.turnTimes.length === THREADS,
      },
      {
        target: `Scale: throughput within ${THROUGHPUT_TARGET}x of the floor's`,
        measured: `${ms(throughput(floor) / throughput(runtime), 2)}x (${ms(throughput(runtime), 0)} against ${ms(throughput(floor), 0)} rounds/s)`,
        met: throughput(floor) <= THROUGHPUT_TARGET * throughput(runtime),
      },
    ],
  };
}

/**
 * Runs `turns` with the workerd processes' CPU time and resident memory read around it.
 * @param {import('../../harness/wrangler-dev.mjs').WranglerDev} dev
 * @param {() => Promise<Turns>} turns
 * @returns {Promise<Load>}
 */
async function load(dev, turns) {
  const processes = await workerdProcesses(dev.pid, dev.port);
  const runtime = processes.find((process) => process.role === 'runtime');
  const proxy = processes.find((process) => process.role === 'proxy');
  if (!runtime) throw new Error('the workerd process of the Worker was not found');
  const before = { runtime: await residentMiB(runtime.pid), proxy: proxy ? await residentMiB(proxy.pid) : 0 };
  const samplers = {
    runtime: sampleResident(runtime.pid, MEMORY_SAMPLE_MS),
    proxy: proxy ? sampleResident(proxy.pid, MEMORY_SAMPLE_MS) : null,
  };
  const cpuBefore = { runtime: cpuMs(runtime.pid), proxy: proxy ? cpuMs(proxy.pid) : 0 };
  const started = performance.now();
  const recorded = await turns();
  const elapsed = performance.now() - started;
  const cpu = {
    runtime: cpuMs(runtime.pid) - cpuBefore.runtime,
    proxy: proxy ? cpuMs(proxy.pid) - cpuBefore.proxy : 0,
  };
  const runtimeMemory = await samplers.runtime.stop();
  const proxyMemory = await samplers.proxy?.stop();
  return {
    ...recorded,
    elapsed,
    cpu,
    memory: {
      runtime: { before: before.runtime, peak: runtimeMemory.peak, end: runtimeMemory.last },
      proxy: proxyMemory ? { before: before.proxy, peak: proxyMemory.peak, end: proxyMemory.last } : null,
    },
  };
}

/**
 * The runtime's turns: POSTs with at most IN_FLIGHT in flight, each turn followed to its `idle`.
 * @param {ReturnType<typeof benchClient>} client
 * @param {import('../client.mjs').ModelServer} model
 * @returns {Promise<Turns>}
 */
async function runtimeTurns(client, model) {
  /** @type {Turns} */
  const recorded = { errors: [], turnTimes: [], gaps: [], polls: 0, issued: 0 };
  /** @type {Promise<void>[]} */
  const following = [];
  /** @param {string} nonce @param {string} id @param {number} sentAt */
  const follow = async (nonce, id, sentAt) => {
    await model.finished(nonce, TURN_TIMEOUT_MS);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      recorded.polls++;
      const view = await client.api('GET', `/api/threads/${id}`);
      if (view.last_error || view.status === 'error') throw new Error(`turn failed: ${view.last_error}`);
      if (view.status === 'idle') break;
      if (performance.now() - sentAt > TURN_TIMEOUT_MS) throw new Error(`still ${view.status}`);
    }
    recorded.turnTimes.push(performance.now() - sentAt);
    collectGaps(model, nonce, recorded);
  };
  const started = performance.now();
  let next = 0;
  const issuers = Array.from({ length: IN_FLIGHT }, async () => {
    while (next < THREADS) {
      next++;
      const nonce = randomUUID();
      const sentAt = performance.now();
      try {
        const { id } = await client.api(
          'POST',
          '/api/threads',
          { agent: 'bench', messages: [{ role: 'user', content: runText(nonce, ROUNDS) }] },
          201,
        );
        following.push(
          follow(nonce, id, sentAt).catch((error) => void recorded.errors.push(`thread ${id}: ${describe(error)}`)),
        );
      } catch (error) {
        recorded.errors.push(`POST, after ${ms(performance.now() - sentAt, 0)} ms: ${describe(error)}`);
      }
    }
  });
  await Promise.all(issuers);
  recorded.issued = performance.now() - started;
  await Promise.all(following);
  return recorded;
}

/**
 * The floor's turns: every request to a fresh Floor object in flight at once.
 * @param {ReturnType<typeof benchClient>} client
 * @returns {Promise<Turns>}
 */
async function floorTurns(client) {
  /** @type {Turns} */
  const recorded = { errors: [], turnTimes: [], gaps: [], polls: 0, issued: 0 };
  await Promise.all(
    Array.from({ length: THREADS }, async () => {
      try {
        const turn = await client.floorTurn(ROUNDS);
        recorded.turnTimes.push(turn.total);
        recorded.gaps.push(...turn.gaps);
      } catch (error) {
        recorded.errors.push(describe(error));
      }
    }),
  );
  return recorded;
}

/**
 * @param {import('../client.mjs').ModelServer} model
 * @param {string} nonce
 * @param {Turns} recorded
 */
function collectGaps(model, nonce, recorded) {
  const gaps = model.gaps(nonce);
  model.forget(nonce);
  if (gaps.length !== ROUNDS) throw new Error(`${gaps.length + 1} model requests, not ${ROUNDS + 1}`);
  recorded.gaps.push(...gaps);
}

/**
 * An error's message with its cause's (fetch failures name the socket error only in the cause).
 * @param {unknown} error
 */
function describe(error) {
  const { message, cause } = /** @type {Error & { cause?: Error & { code?: string } }} */ (error);
  return cause ? `${message} (${cause.code ?? ''} ${cause.message})` : message;
}

/**
 * Errors grouped by what they say once numbers and ids are set aside: a count and the first of each.
 * @param {string[]} errors
 */
function errorKinds(errors) {
  /** @type {Map<string, { count: number, first: string }>} */
  const kinds = new Map();
  for (const error of errors) {
    const kind = error.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/\d+/g, 'N');
    const entry = kinds.get(kind) ?? { count: 0, first: error };
    entry.count++;
    kinds.set(kind, entry);
  }
  return [...kinds.values()].map(({ count, first }) => `- ${count} × ${first}`).join('\n');
}
