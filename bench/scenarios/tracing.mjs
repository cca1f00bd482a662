/**
 * Tracing on against off: what recording a turn's spans and sending them to a collector costs a tool
 * round and a whole turn. Two wrangler devs of the benchmark Worker run side by side on the same
 * model server: one with `OTEL_EXPORTER_OTLP_ENDPOINT` set to a local OTLP receiver on a thread
 * of this process (harness/otlp-receiver.mjs, which decodes every request as a collector would, on an
 * event loop apart from the model server's; content capture off, the default), one with `OTEL_SDK_DISABLED=true` (no span made, stored or sent). `bench` turns
 * of 20 tool rounds take turns on the two, run by run; a turn is timed from `POST /api/threads` to
 * its `idle` frame on the thread's WebSocket, so it holds the spans' SQLite write at the turn's end;
 * the export itself runs after it, through `waitUntil`.
 */
import { benchClient } from '../client.mjs';
import { ms, spreadCells, spreadText, table, times } from '../format.mjs';
import { startReceiverThread } from '../otlp-receiver-thread.mjs';
import { medians, pooled, ratio, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

/** Tracing on may make a round or a turn at most this much slower (median ratio). */
const TARGET = 1.05;
const ROUNDS = 20;
const RUNS = 5;

/** @typedef {import('../client.mjs').TurnTiming} TurnTiming */

/** @param {TurnTiming} turn */
const perRound = (turn) => [turn.rounds / ROUNDS];
/** @param {TurnTiming} turn */
const whole = (turn) => [turn.total];

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function tracing({ model, key, startDev, repetitions }) {
  const receiver = await startReceiverThread();
  const on = await startDev({ vars: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  const off = await startDev({ vars: { OTEL_SDK_DISABLED: 'true' } });
  try {
    const clients = {
      on: benchClient({ url: on.url, key, model }),
      off: benchClient({ url: off.url, key, model }),
    };
    const arms = {
      on: () => clients.on.createdTurn('bench', ROUNDS, 'stream'),
      off: () => clients.off.createdTurn('bench', ROUNDS, 'stream'),
    };
    for (const arm of Object.values(arms)) await arm();
    const results = await repeat({ repetitions, runs: RUNS, arms });
    const turns = repetitions * RUNS + 1;
    // Every traced turn reached the collector (its spans are sent after the turn: wait for the last).
    const received = await receiver.waitForNamed('invoke_agent bench', turns, 30_000);
    // The untraced Worker's threads, which all ran turns, recorded nothing.
    const { threads } = await clients.off.api('GET', '/api/threads');
    let offSpans = 0;
    for (const { id } of threads.slice(0, 5))
      offSpans += (await clients.off.api('GET', `/api/threads/${id}/spans`)).spans.length;
    return report(results, repetitions, {
      spans: received.spans,
      requests: received.requests,
      turns,
      offSpans,
    });
  } finally {
    await on.stop();
    await off.stop();
    await receiver.close();
  }
}

/**
 * @param {import('../repetitions.mjs').Repeated<TurnTiming>} results
 * @param {number} repetitions
 * @param {{ spans: number, requests: number, turns: number, offSpans: number }} sent
 * @returns {import('../format.mjs').Section}
 */
function report(results, repetitions, sent) {
  const roundRatio = ratio(results, 'on', 'off', perRound);
  const turnRatio = ratio(results, 'on', 'off', whole);
  /** @param {string} label @param {string} arm @param {(turn: TurnTiming) => number[]} values */
  const row = (label, arm, values) => {
    const all = pooled(results, arm, values);
    return [
      label,
      String(all.length),
      ms(median(all), 2),
      ms(quantile(all, 0.95), 2),
      medians(results, arm, values)
        .map((value) => ms(value, 2))
        .join(', '),
    ];
  };
  const markdown = `## Tracing on against off

\`bench\` turns of ${ROUNDS} tool rounds, ${repetitions} repetitions of ${RUNS} runs on each of two wrangler devs of the
benchmark Worker, interleaved: **on** with \`OTEL_EXPORTER_OTLP_ENDPOINT\` set to a local OTLP receiver on a thread of
the benchmark's process (it decodes every request, apart from the model server's event loop; content capture off), **off** with \`OTEL_SDK_DISABLED=true\`. A
round is the mean model-server gap of a turn's ${ROUNDS} rounds; a turn is from \`POST /api/threads\` to its \`idle\`
frame on the thread's WebSocket (the spans' SQLite write included; their export runs after it, through
\`waitUntil\`). The receiver got ${sent.spans} spans in ${sent.requests} requests for the ${sent.turns} traced turns; five threads
of the untraced Worker hold ${sent.offSpans} spans.

${table(
  ['', 'turns', 'median (ms)', 'p95 (ms)', 'median per repetition (ms)'],
  [
    row('Round, tracing on', 'on', perRound),
    row('Round, tracing off', 'off', perRound),
    row('Turn, tracing on', 'on', whole),
    row('Turn, tracing off', 'off', whole),
  ],
)}

${table(
  ['on / off, per repetition', 'median', 'IQR', 'min – max'],
  [
    ['Round', ...spreadCells(roundRatio, times)],
    ['Turn (POST to idle)', ...spreadCells(turnRatio, times)],
  ],
)}
`;
  return {
    markdown,
    targets: [
      {
        target: `Tracing on (spans stored and exported) adds at most ${Math.round((TARGET - 1) * 100)} % to a tool round`,
        measured: spreadText(roundRatio, times),
        met: roundRatio.median <= TARGET,
      },
      {
        target: `Tracing on adds at most ${Math.round((TARGET - 1) * 100)} % to a ${ROUNDS}-round turn (POST to idle)`,
        measured: spreadText(turnRatio, times),
        met: turnRatio.median <= TARGET,
      },
    ],
  };
}
