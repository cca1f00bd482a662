/**
 * Provider adapters: what each adapter adds to a tool round. The same agent on each adapter
 * (bench/worker.ts), answered by the same model server speaking each protocol with the test servers'
 * bytes (bench/wire-protocols.mjs): Chat Completions, Anthropic's Messages API, Gemini's
 * `streamGenerateContent`, and the Workers AI binding's event stream (a stand-in binding that posts
 * `{ model, inputs }` to the server, as wrangler dev has no Workers AI offline). Rounds are timed as
 * in the per-round comparison and set against the OpenAI-compatible client's, repetition by repetition.
 */
import { kib, ms, spreadCells, spreadText, table, times } from '../format.mjs';
import { pooled, ratio, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

/** No adapter may make a round more than this multiple of the OpenAI-compatible client's. */
const TARGET = 1.1;
const ROUNDS = 20;
const RUNS = 3;
const HISTORY = 10;
/** `bench` is the OpenAI-compatible client, the baseline. */
const PROVIDERS = [
  { provider: 'openai', agent: 'bench' },
  { provider: 'anthropic', agent: 'bench-anthropic' },
  { provider: 'google', agent: 'bench-google' },
  { provider: 'workers-ai', agent: 'bench-workers-ai' },
];

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function providers({ client, repetitions }) {
  const arms = Object.fromEntries(
    PROVIDERS.map(({ provider, agent }) => [provider, () => client.rounds(agent, HISTORY, ROUNDS)]),
  );
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });
  /** @param {{ gaps: number[] }} run */
  const gaps = (run) => run.gaps;
  const rows = PROVIDERS.map(({ provider, agent }) => {
    const all = pooled(results, provider, gaps);
    return [
      `\`${provider}\` (\`${agent}\`)`,
      String(all.length),
      ms(median(all), 2),
      ms(quantile(all, 0.95), 2),
      kib(median(pooled(results, provider, (run) => run.bodySizes))),
      ...spreadCells(ratio(results, provider, 'openai', gaps), times),
    ];
  });
  const markdown = `## Provider adapters

The same agent on each adapter, ${ROUNDS}-round threads with a ${HISTORY}-message history, ${repetitions} repetitions of
${RUNS} runs of each adapter, interleaved; against one model server speaking each protocol with the test
servers' bytes. The ratio is each repetition's median round over the OpenAI-compatible client's.

${table(['adapter', 'rounds', 'median (ms)', 'p95 (ms)', 'request body', '/ OpenAI: median', 'IQR', 'min – max'], rows)}
`;
  const targets = PROVIDERS.slice(1).map(({ provider }) => {
    const spread = ratio(results, provider, 'openai', gaps);
    return {
      target: `\`${provider}\` round within ${Math.round((TARGET - 1) * 100)}% of the OpenAI-compatible client's`,
      measured: spreadText(spread, times),
      met: spread.median <= TARGET,
    };
  });
  return { markdown, targets };
}
