/**
 * Fan-out: 100 WebSocket clients watching one thread through a 10-round turn. Every client opens the
 * thread's stream (`?after=` its last frame) before the turn starts; the turn's frames must reach all
 * of them, each frame once, in order, with no gap in `seq`, and every client must end with the same
 * frames. Timed: from the model server's end of the final answer to each client receiving the turn's
 * final frame (`status: idle`), p50 and p99 over the clients, per repetition.
 */
import { randomUUID } from 'node:crypto';
import { watch } from '../client.mjs';
import { ms, table } from '../format.mjs';
import { runText } from '../model-server.mjs';
import { median, quantile } from '../stats.mjs';

const CLIENTS = 100;
const ROUNDS = 10;
const REPETITIONS = 5;
const TIMEOUT_MS = 60_000;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function fanOut({ client, model, url, key }) {
  const rows = [];
  /** @type {string[]} */
  const problems = [];
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const thread = await client.idleThread('bench', 0);
    const watchers = await Promise.all(
      Array.from({ length: CLIENTS }, () => watch(url, key, thread.id, thread.lastSeq)),
    );
    const nonce = randomUUID();
    await client.api('POST', `/api/threads/${thread.id}/messages`, { content: runText(nonce, ROUNDS) }, 202);
    const answeredAt = await model.finished(nonce, TIMEOUT_MS);
    const finishedAt = await Promise.all(watchers.map((watcher) => watcher.turnEnded));
    for (const watcher of watchers) watcher.close();
    model.forget(nonce);

    // Each client's frames up to the turn's final one (the idle after running).
    const seqs = watchers.map(({ frames }) => {
      const running = frames.findIndex((frame) => frame.type === 'status' && frame.status === 'running');
      const idle = frames.findIndex(
        (frame, index) => index > running && frame.type === 'status' && frame.status === 'idle',
      );
      return frames.slice(0, idle + 1).map((frame) => frame.seq);
    });
    const counts = seqs.map((list) => list.length);
    const inOrder = seqs.every((list) => list.every((seq, index) => seq === thread.lastSeq + 1 + index));
    const same = seqs.every((list) => list.at(-1) === seqs[0]?.at(-1));
    if (!inOrder || !same) problems.push(`repetition ${repetition + 1}: frames out of order, missing or unequal`);
    const delays = finishedAt.map((at) => at - answeredAt);
    rows.push([
      String(repetition + 1),
      `${CLIENTS} × ${median(counts)}`,
      inOrder && same ? 'yes' : '**no**',
      ms(quantile(delays, 0.5)),
      ms(quantile(delays, 0.99)),
      ms(Math.max(...delays)),
    ]);
  }
  const markdown = `## Fan-out: ${CLIENTS} WebSocket clients on one thread

${REPETITIONS} repetitions, each a fresh thread: ${CLIENTS} clients (the \`ws\` package, in the benchmark's process) open
its stream, then a message starts a ${ROUNDS}-round turn. Each client must receive every frame of the turn
once, in order, \`seq\` without gaps, all clients the same frames. Delay: from the model server's end of
the final answer to a client receiving the final frame (\`status: idle\`), over the ${CLIENTS} clients.

${table(['repetition', 'frames received', 'all complete, in order', 'delay p50 (ms)', 'p99 (ms)', 'max (ms)'], rows)}
`;
  return {
    markdown,
    targets: [
      {
        target: `Fan-out: all ${CLIENTS} WebSocket clients receive every frame of a ${ROUNDS}-round turn, in order`,
        measured: problems.length === 0 ? `${REPETITIONS} of ${REPETITIONS} turns complete` : problems.join('; '),
        met: problems.length === 0,
      },
    ],
  };
}
