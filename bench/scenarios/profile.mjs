/**
 * Where a tool round's time goes: the Worker's isolate profiled (V8's sampling profiler, through
 * wrangler dev's DevTools inspector) while `bench` threads run their tool rounds, then while Floor
 * turns run theirs, on a wrangler dev of its own serving the benchmark Worker unminified, so each
 * sample names its function and, through the bundle's source markers, its file and room.
 *
 * The attached inspector slows the isolate (workerd reports every request to it), so the
 * milliseconds here are larger than the other scenarios'; read them as shares, and the runtime
 * against the floor measured alike. No target: this is the profile behind the ratios.
 *
 * `PROFILE_THREADS` and `PROFILE_ROUNDS` change the work profiled (40 threads of 20 rounds);
 * `PROFILE_SAVE=<path>` keeps the runtime's profile as `<path>.cpuprofile` (Chrome's DevTools opens
 * it) beside the bundle it ran, `<path>.js`, whose `// src/…` lines name each function's file.
 */
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { benchClient } from '../client.mjs';
import { connectInspector, profileWhile, sourceFiles, summarize } from '../cpu-profile.mjs';
import { ms, table } from '../format.mjs';

const THREADS = Number(process.env.PROFILE_THREADS ?? 40);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 20);
const PROFILE_CONFIG = 'bench/wrangler.profile.toml';

/** @param {number} part @param {number} whole */
const share = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;

/**
 * The rows of a map's largest entries: name, share of the busy time, ms per round.
 * @param {Map<string, number>} map @param {number} busyUs @param {number} rounds @param {number} count
 */
function largest(map, busyUs, rounds, count) {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => [name, share(us, busyUs), ms(us / rounds / 1000, 3)]);
}

/**
 * The runtime's largest places, each beside the floor's time in the same place (the engine's own
 * work, built-ins and SQLite are named alike for both; the floor's JavaScript is the room `bench`).
 * @param {import('../cpu-profile.mjs').ProfileSummary} runtime
 * @param {import('../cpu-profile.mjs').ProfileSummary} floor
 * @param {number} rounds
 */
function placeRows(runtime, floor, rounds) {
  return largest(runtime.byPlace, runtime.busyUs, rounds, 24).map((row) => {
    const us = floor.byPlace.get(String(row[0]));
    return [...row, us === undefined ? '–' : ms(us / rounds / 1000, 3)];
  });
}

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function profile({ startDev, key, model }) {
  const unminified = (await readFile('bench/wrangler.toml', 'utf8')).replace('minify = true', 'minify = false');
  await writeFile(PROFILE_CONFIG, unminified);
  const dev = await startDev({ config: PROFILE_CONFIG, inspector: true }).finally(() =>
    rm(PROFILE_CONFIG, { force: true }),
  );
  try {
    const client = benchClient({ url: dev.url, key, model });
    const runtime = async () => {
      for (let thread = 0; thread < THREADS; thread++) await client.rounds('bench', 1, ROUNDS);
    };
    const floor = async () => {
      for (let turn = 0; turn < THREADS; turn++) await client.floorTurn(ROUNDS);
    };
    await client.rounds('bench', 1, ROUNDS);
    await client.floorTurn(ROUNDS);
    const inspector = await connectInspector(dev.inspectorPort);
    const fileAt = await sourceFiles(/** @type {string} */ (dev.bundlePath));
    const runtimeProfile = await profileWhile(inspector, runtime);
    if (process.env.PROFILE_SAVE) {
      // For a closer look: the profile opens in Chrome's DevTools; the bundle names its lines.
      await writeFile(`${process.env.PROFILE_SAVE}.cpuprofile`, JSON.stringify(runtimeProfile));
      await copyFile(/** @type {string} */ (dev.bundlePath), `${process.env.PROFILE_SAVE}.js`);
    }
    const ofRuntime = summarize(runtimeProfile, fileAt);
    const ofFloor = summarize(await profileWhile(inspector, floor), fileAt);
    inspector.close();
    return { markdown: render(ofRuntime, ofFloor), targets: [] };
  } finally {
    await dev.stop();
  }
}

/**
 * @param {import('../cpu-profile.mjs').ProfileSummary} runtime
 * @param {import('../cpu-profile.mjs').ProfileSummary} floor
 */
function render(runtime, floor) {
  const rounds = THREADS * ROUNDS;
  const perRound = (/** @type {number} */ us) => ms(us / rounds / 1000, 3);
  const sqlite = (/** @type {import('../cpu-profile.mjs').ProfileSummary} */ summary) =>
    [...summary.sqliteByCaller.values()].reduce((sum, us) => sum + us, 0);
  return `## Where a round's time goes: the profile

The Worker's isolate profiled (V8's sampling profiler, every 0.1 ms, through wrangler dev's DevTools
inspector) while ${THREADS} \`bench\` threads ran ${ROUNDS} tool rounds each, then while ${THREADS} Floor turns
of ${ROUNDS} rounds ran, on a wrangler dev of its own serving the benchmark Worker unminified. *Busy* is
the isolate's time not idle: its JavaScript, the built-ins it called, the engine's own work (commits,
I/O, compiling) and garbage collection; for the runtime it holds each thread's creation and turn
start and end too, spread over its rounds. The attached inspector slows the isolate, so compare shares,
and the runtime with the floor, rather than these milliseconds with the other sections'.

|  | rounds | busy per round (ms) | of which SQLite statements (ms) |
| --- | ---: | ---: | ---: |
| Runtime (\`bench\`) | ${rounds} | ${perRound(runtime.busyUs)} | ${perRound(sqlite(runtime))} |
| Floor | ${rounds} | ${perRound(floor.busyUs)} | ${perRound(sqlite(floor))} |
| Runtime / floor | | **${(runtime.busyUs / floor.busyUs).toFixed(2)}x** | ${(sqlite(runtime) / sqlite(floor)).toFixed(2)}x |

Where the runtime's busy time went: each room's own JavaScript (\`thread/storage\` is
\`src/thread/storage/\`; a package by its name), the built-ins each room called, SQLite statements, and
the engine outside JavaScript.

${table(['place', 'share of busy time', 'ms per round', 'the floor, ms per round'], placeRows(runtime, floor, rounds))}

SQLite statements by the function that ran them:

${table(['function (file)', 'share of busy time', 'ms per round'], largest(runtime.sqliteByCaller, runtime.busyUs, rounds, 12))}

The runtime's functions with the most time of their own (their callees not counted):

${table(['function (file)', 'share of busy time', 'ms per round'], largest(runtime.byFunction, runtime.busyUs, rounds, 20))}
`;
}
