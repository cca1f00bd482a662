/**
 * Resume after a crash: how long a turn interrupted by a crash of the whole runtime waits to resume.
 * A wrangler dev of its own keeps its state in a directory (`persistTo`). A turn starts whose model
 * answer stalls after its first text (the model server's `stall:1`: two events, then nothing, the
 * connection held open); once the thread's WebSocket has shown that text, wrangler dev and workerd are
 * killed with SIGKILL and started again on the same port and state. With no request sent to the
 * Worker, the thread's safety alarm must wake it and resume the turn: timed from wrangler dev printing
 * `Ready on` to the model server receiving the resumed step's request. The restarted instance then
 * serves the next repetition, so each repetition costs one restart.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClient, watch } from '../client.mjs';
import { ms, table } from '../format.mjs';
import { runText } from '../model-server.mjs';
import { median } from '../stats.mjs';

const REPETITIONS = 5;
/** The longest a resume may wait after the restart: the safety alarm's two seconds. */
const TARGET_MS = 2000;
const RESUME_TIMEOUT_MS = 30_000;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function restart({ model, key, startDev }) {
  const state = await mkdtemp(join(tmpdir(), 'bench-restart-'));
  let dev = await startDev({ persistTo: state });
  const rows = [];
  /** @type {number[]} */
  const delays = [];
  try {
    for (let repetition = 0; repetition < REPETITIONS; repetition++) {
      const client = benchClient({ url: dev.url, key, model });
      const nonce = randomUUID();
      const { id } = await client.api(
        'POST',
        '/api/threads',
        { agent: 'bench', messages: [{ role: 'user', content: runText(nonce, 0, { stall: 1 }) }] },
        201,
      );
      const watcher = await watch(dev.url, key, id, 0);
      await watcher.until((frame) => frame.type === 'message_delta');
      watcher.close();

      const killedAt = performance.now();
      await dev.kill();
      await dev.stop();
      dev = await startDev({ persistTo: state, port: dev.port });
      const resumedAt = await model.arrived(nonce, 2, RESUME_TIMEOUT_MS);
      const delay = resumedAt - dev.readyAt;
      delays.push(delay);

      await model.finished(nonce, RESUME_TIMEOUT_MS);
      await benchClient({ url: dev.url, key, model }).untilIdle(id);
      model.forget(nonce);
      rows.push([String(repetition + 1), ms((dev.readyAt - killedAt) / 1000, 1), `**${ms(delay, 0)}**`]);
    }
  } finally {
    await dev.stop();
    await rm(state, { recursive: true, force: true });
  }
  const worst = Math.max(...delays);
  const markdown = `## Resume after a crash

${REPETITIONS} repetitions on a wrangler dev of its own keeping its state in a directory: a turn whose model answer
stalls after its first text; once the thread's WebSocket has shown that text, wrangler dev and workerd
are killed (SIGKILL) and started again on the same port and state. No request is sent to the Worker
until the model server has received the resumed step's request. Delay: from \`Ready on\` to that request.
Restart: from the kill to \`Ready on\` (bundling the Worker included), not part of the target.

${table(['repetition', 'restart (s)', 'Ready → resumed request (ms)'], rows)}

Median ${ms(median(delays), 0)} ms, max ${ms(worst, 0)} ms. A restart takes longer than the safety alarm's two
seconds, so the alarm is already due when workerd is ready: the delay is how soon workerd runs a due
alarm once it starts, the thread's object wakes and its turn sends the step again.
`;
  return {
    markdown,
    targets: [
      {
        target: `Resume after a crash within ${TARGET_MS / 1000} s of the restart (every repetition)`,
        measured: `median ${ms(median(delays), 0)} ms, max ${ms(worst, 0)} ms`,
        met: worst <= TARGET_MS,
      },
    ],
  };
}
