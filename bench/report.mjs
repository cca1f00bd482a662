/**
 * The benchmark's report: the machine it ran on and bench/RESULTS.md's markdown, with the targets and
 * whether this run met them.
 */
import { readFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';

/** The per-round overhead may be at most this multiple of the floor. */
const OVERHEAD_TARGET = 2;
/**
 * "Flat in history length": with a request body that does not grow with the history, a round on a
 * 2,000-message thread may take at most this multiple of one on a 10-message thread (noise allowance).
 */
const FLAT_TARGET = 1.5;
/** No provider adapter may make a round more than 10% slower than the OpenAI-compatible client. */
const PROVIDER_TARGET = 1.1;

/**
 * @typedef {{ count: number, median: number, p95: number, bodyBytes: number }} Measured
 * @typedef {{ agent: string, sends: string, short: Measured, long: Measured }} HistoryResult
 * @typedef {{ provider: string, agent: string, measured: Measured }} ProviderResult
 * @typedef {object} SandboxResult
 * @property {number} innerCalls Tool calls the program of `calls` makes.
 * @property {Measured} noop A tool round calling `noop` (not a thread's first).
 * @property {Measured} empty A round running a program that returns at once (not a thread's first).
 * @property {Measured} calls A round running a program making `innerCalls` calls of `noop`.
 * @property {Measured} firstNoop A thread's first round, calling `noop`.
 * @property {Measured} firstEmpty A thread's first round, running the program that returns at once.
 * @typedef {object} McpResult
 * @property {string} tool The MCP tool called, as the thread names it.
 * @property {Measured} noop A tool round calling `noop`, in the same kind of thread.
 * @property {Measured} call A round calling the MCP tool (not a thread's first).
 * @property {Measured} firstCall A thread's first round calling it, on the session its listing opened.
 * @typedef {{ cpu: string, cores: number, memoryGiB: number, node: string, wrangler: string }} Machine
 * @typedef {object} Results
 * @property {string} date
 * @property {Machine} machine
 * @property {number} roundsPerRun Tool rounds per thread (and per Floor run).
 * @property {{ short: number, long: number }} historyLengths Messages a thread is created with.
 * @property {{ runtime: Measured, floor: Measured }} overhead
 * @property {HistoryResult[]} history
 * @property {ProviderResult[]} providers The OpenAI-compatible client first.
 * @property {SandboxResult} sandbox
 * @property {McpResult} mcp
 * @property {number} elapsedSeconds
 */

/** @returns {Promise<Machine>} */
export async function describeMachine() {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const wranglerPackage = new URL('../node_modules/wrangler/package.json', import.meta.url);
  const wrangler = JSON.parse(await readFile(wranglerPackage, 'utf8')).version;
  return { cpu, cores: cpus().length, memoryGiB: totalmem() / 2 ** 30, node: process.version, wrangler };
}

/** @param {Results} results */
export function renderResults({
  date,
  machine,
  roundsPerRun,
  historyLengths,
  overhead,
  history,
  providers,
  sandbox,
  mcp,
  elapsedSeconds,
}) {
  const { short, long } = historyLengths;
  const overheadRatio = overhead.runtime.median / overhead.floor.median;
  const turnOnly = history.find((result) => result.agent === 'bench-turn');
  const flatRatio = turnOnly ? turnOnly.long.median / turnOnly.short.median : Number.NaN;
  const rows = [
    row(`Runtime tool round (\`bench\`, ${short}-message history)`, overhead.runtime),
    row('Floor: one fetch + one SQLite insert', overhead.floor),
    ratioRow('Runtime / floor', overheadRatio),
    ...history.flatMap((result) => [
      row(`\`${result.agent}\` (sends ${result.sends}), ${short}-message history`, result.short),
      row(`\`${result.agent}\`, ${long}-message history`, result.long),
      ratioRow(`\`${result.agent}\` ${long} / ${short} messages`, result.long.median / result.short.median),
    ]),
  ];
  const openai = providers[0]?.measured.median ?? Number.NaN;
  const providerRows = providers.map(({ provider, agent, measured }) =>
    providerRow(`\`${provider}\` (\`${agent}\`)`, measured, measured.median / openai),
  );
  const providerTargets = providers.slice(1).map(({ provider, measured }) => {
    const value = measured.median / openai;
    return `| \`${provider}\` round within ${percent(PROVIDER_TARGET)} of the OpenAI-compatible client's | ${ratio(value)} | ${verdict(value <= PROVIDER_TARGET)} |`;
  });
  const warmProgram = sandbox.empty.median - sandbox.noop.median;
  const coldProgram = sandbox.firstEmpty.median - sandbox.firstNoop.median;
  const innerCall = (sandbox.calls.median - sandbox.empty.median) / sandbox.innerCalls;
  const mcpRows = [
    row('Tool round calling `noop`', mcp.noop),
    row(`Tool round calling the MCP tool \`${mcp.tool}\``, mcp.call),
    row(`A thread's first tool round calling \`${mcp.tool}\``, mcp.firstCall),
  ];
  const sandboxRows = [
    row('Tool round calling `noop` (a tool the model calls)', sandbox.noop),
    row('Tool round running a program that returns at once', sandbox.empty),
    row(`Tool round running a program that calls \`noop\` ${sandbox.innerCalls} times`, sandbox.calls),
    row("A thread's first tool round, calling `noop`", sandbox.firstNoop),
    row("A thread's first tool round, running the program that returns at once", sandbox.firstEmpty),
  ];
  return `# Benchmark results

Run on ${date} by \`npm run bench\` (${elapsedSeconds.toFixed(0)} s in all).

Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB memory;
Node ${machine.node}, wrangler ${machine.wrangler} (\`wrangler dev\`, local workerd).

## How it was measured

- \`bench/worker.ts\` runs the runtime with one tool, \`noop\`, that returns \`ok\` at once. Its model is a
  local OpenAI-compatible server (\`bench/model-server.mjs\`) that answers instantly with the same SSE
  bytes as the test server: one \`noop\` call per step until the turn has the requested number of tool
  results, then text.
- **Time per tool round** is taken on the model server: from the moment it finished writing an answer
  (end of stream handed to the OS) to the moment the next chat-completions request had fully arrived.
  That is the runtime's own work: read the streamed answer, persist the assistant message, run the
  tool, persist its result, build and send the next request.
- **Floor**: a bare Durable Object (\`bench/floor.ts\`) doing only one streamed chat-completions
  request (its body read to the end) and one SQLite insert per round, timed the same way.
- ${overhead.runtime.count} runtime rounds in threads of ${roundsPerRun} rounds each (a turn is capped at
  100 model steps), alternating with Floor runs of ${roundsPerRun} rounds (${overhead.floor.count} in all),
  so load from other processes on a shared machine falls on both alike. Every measurement follows a
  warm-up run.
- History: threads created with ${short} or ${long} messages (alternating user and assistant, the last
  one the user message that starts the run), ${roundsPerRun} rounds each, the two lengths alternating
  (${history[0]?.short.count ?? 0} rounds of each per agent). \`bench\` sends the whole conversation to
  the model, as a chat agent does by default, so its request body grows with the history;
  \`bench-turn\` sends only the current turn, so any growth left is the runtime's own handling of a
  longer log.
- Providers: the same agent on each provider adapter (\`bench-anthropic\`, \`bench-google\`,
  \`bench-workers-ai\`, and \`bench\` for the OpenAI-compatible client), against the same model server
  speaking each protocol with the test servers' bytes (\`bench/wire-protocols.mjs\`): Chat Completions,
  Anthropic's Messages API, Gemini's \`streamGenerateContent\`, and the Workers AI binding's event
  stream (the binding is a stand-in that posts \`{ model, inputs }\` to the server, as wrangler dev has
  no Workers AI offline). ${roundsPerRun}-round threads with a ${short}-message history, the adapters
  taking turns run by run (${providers[0]?.measured.count ?? 0} rounds each), after a warm-up run of each.
- Sandboxed code: \`bench-code\` calls \`noop\`, or \`bench_program\`, whose \`state.runCode\` program
  returns at once or calls \`noop\` ${sandbox.innerCalls} times from inside its isolate; the three kinds of
  thread take turns run by run. Every program gets an isolate of its own (none is reused, so nothing
  one program leaves behind meets another): the "first" rows are a thread's first tool round, its
  first program the first isolate that Durable Object loads.
- MCP: \`bench-mcp\` calls \`noop\` or \`${mcp.tool}\`, the \`whoami\` tool of a local MCP server
  (\`harness/mcp-servers.mjs\`, the official SDK's Streamable HTTP server in Node) over the egress
  policy, the two kinds of thread taking turns run by run. Each new thread lists the server when its
  turn starts, before the first model request, so no timed round holds the listing; the "first" row
  is a thread's first call on the session that listing opened.
- All figures come from this one run; timings on a shared VM are noisy, so compare ratios measured
  in the same run rather than absolute milliseconds across runs.

## Results

| measurement | rounds | median (ms) | p95 (ms) | request body (median) |
|---|---:|---:|---:|---:|
${rows.join('\n')}

### Sandboxed code

| measurement | rounds | median (ms) | p95 (ms) | request body (median) |
|---|---:|---:|---:|---:|
${sandboxRows.join('\n')}

| derived (medians) | ms |
|---|---:|
| One \`runCode\` of a trivial program, in a thread that ran one before (program round - noop round) | ${warmProgram.toFixed(2)} |
| One \`runCode\` of a trivial program, a thread's first (first program round - first noop round) | ${coldProgram.toFixed(2)} |
| One tool call from inside a program ((${sandbox.innerCalls}-call program round - empty program round) / ${sandbox.innerCalls}) | ${innerCall.toFixed(2)} |
| One tool round of the same tool called by the model (noop round) | ${sandbox.noop.median.toFixed(2)} |

### MCP tools

| measurement | rounds | median (ms) | p95 (ms) | request body (median) |
|---|---:|---:|---:|---:|
${mcpRows.join('\n')}

| derived (medians) | ms |
|---|---:|
| One call of an MCP tool beyond a local tool's round (MCP round - noop round), the local SDK server's own time included | ${(mcp.call.median - mcp.noop.median).toFixed(2)} |

### Provider adapters

| adapter | rounds | median (ms) | p95 (ms) | request body (median) | / OpenAI (medians) |
|---|---:|---:|---:|---:|---:|
${providerRows.join('\n')}

## Targets

| target | measured | met |
|---|---:|:---:|
| Per-round overhead within ${OVERHEAD_TARGET}x of the floor | ${ratio(overheadRatio)} | ${verdict(overheadRatio <= OVERHEAD_TARGET)} |
| Flat in history length apart from building the request body (\`bench-turn\`, ${long} / ${short} messages, at most ${FLAT_TARGET}x) | ${ratio(flatRatio)} | ${verdict(flatRatio <= FLAT_TARGET)} |
${providerTargets.join('\n')}

The \`bench\` ratio is shown for information: it adds building, sending and parsing a request body
that grows with the history.
`;
}

/**
 * @param {string} label
 * @param {Measured} measured
 */
function row(label, { count, median, p95, bodyBytes }) {
  return `| ${label} | ${count} | ${median.toFixed(2)} | ${p95.toFixed(2)} | ${(bodyBytes / 1024).toFixed(1)} KiB |`;
}

/**
 * @param {string} label
 * @param {Measured} measured
 * @param {number} versusOpenAI
 */
function providerRow(label, { count, median, p95, bodyBytes }, versusOpenAI) {
  return `| ${label} | ${count} | ${median.toFixed(2)} | ${p95.toFixed(2)} | ${(bodyBytes / 1024).toFixed(1)} KiB | ${ratio(versusOpenAI)} |`;
}

/** @param {number} value */
function percent(value) {
  return `${Math.round((value - 1) * 100)}%`;
}

/**
 * @param {string} label
 * @param {number} value
 */
function ratioRow(label, value) {
  return `| **${label}** (medians) | | **${ratio(value)}** | | |`;
}

/** @param {number} value */
function ratio(value) {
  return `${value.toFixed(2)}x`;
}

/** @param {boolean} met */
function verdict(met) {
  return met ? 'yes' : 'no';
}
