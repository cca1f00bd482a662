/**
 * MCP tools: what a call of an MCP server's tool costs beside a local tool. `bench-mcp` calls `noop`,
 * or `local__whoami`, the `whoami` tool of a local MCP server (harness/mcp-servers.mjs, the official
 * SDK's Streamable HTTP server in Node) over the egress policy; the two kinds of thread take turns run
 * by run. Each new thread lists the server when its turn starts, before the first model request, so
 * no timed round holds the listing; a thread's first call (on the session that listing opened) is
 * counted apart.
 */
import { ms, spreadCells, table } from '../format.mjs';
import { derived, firstRound, laterRounds, pooledRow, repeat } from '../repetitions.mjs';

/** The MCP tool `bench-mcp` calls: `whoami` of the local test server, which takes no arguments. */
const TOOL = 'local__whoami';
const ROUNDS = 20;
const RUNS = 3;
const HISTORY = 10;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function mcp({ client, mcpUrl, repetitions }) {
  const variables = { BENCH_MCP_URL: mcpUrl };
  const arms = {
    noop: () => client.rounds('bench-mcp', HISTORY, ROUNDS, { variables }),
    call: () => client.rounds('bench-mcp', HISTORY, ROUNDS, { variables, tool: TOOL }),
  };
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });
  const extra = derived(results, (of) => of('call') - of('noop'), laterRounds);
  const markdown = `## MCP tools

\`bench-mcp\` threads of ${ROUNDS} rounds with a ${HISTORY}-message history, ${repetitions} repetitions of ${RUNS} runs of each
kind, interleaved.

${table(
  ['measurement', 'rounds', 'median (ms)', 'p95 (ms)'],
  [
    pooledRow(results, 'Tool round calling `noop`', 'noop', laterRounds),
    pooledRow(results, `Tool round calling the MCP tool \`${TOOL}\``, 'call', laterRounds),
    pooledRow(results, `A thread's first tool round calling \`${TOOL}\``, 'call', firstRound),
  ],
)}

${table(
  ['derived per repetition (ms)', 'median', 'IQR', 'min – max'],
  [
    [
      'One MCP tool call beyond a local tool (MCP round - noop round), the local server included',
      ...spreadCells(extra, (value) => ms(value, 2)),
    ],
  ],
)}
`;
  return { markdown, targets: [] };
}
