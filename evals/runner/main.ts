/**
 * `npm run eval`: reads the command line, then either runs a suite (load it, reach or start the
 * Worker, run the cases, print the table and summary, write the record, compare with the baseline)
 * or prints a recorded thread as a case. Returns the exit code: 0 when every case passed and nothing
 * regressed, 1 otherwise, 2 for a command line it cannot read.
 */
import { writeFile } from 'node:fs/promises';
import { allMessages, apiTarget } from './api-target.js';
import { type EvalArguments, parseArguments, USAGE, UsageError } from './arguments.js';
import { compareWithBaseline } from './baseline.js';
import { caseFromThread } from './from-thread.js';
import { loadSuite } from './load-suite.js';
import { type LocalWorker, type StartWranglerDev, startLocalWorker } from './local-worker.js';
import { type BaselineCase, type RunRecord, readBaseline } from './run-record.js';
import { runSuite } from './run-suite.js';
import { summarize } from './stats.js';
import { formatComparison, formatResults, formatSummary, printable } from './summary-table.js';

export interface MainHost {
  startWranglerDev: StartWranglerDev;
  /** The table, the summary, a printed case: what a script may read. */
  out(text: string): void;
  /** Progress and errors. */
  err(text: string): void;
}

/** Where `--from-thread` looks without `--url`: the Worker `npm run dev` serves, with its key. */
const DEV_SERVER = { url: 'http://localhost:8787', key: 'dev-key' };

async function printCase(args: EvalArguments, host: MainHost): Promise<number> {
  const { url, key } = args.url !== null ? { url: args.url, key: args.key as string } : DEV_SERVER;
  const { client } = apiTarget(url, key);
  const id = args.fromThread as string;
  const thread = await client.threads.get(id);
  host.out(caseFromThread({ id: thread.id, agent: thread.agent, messages: await allMessages(client, id) }));
  return 0;
}

async function runCases(args: EvalArguments, baseline: BaselineCase[] | null, host: MainHost, cases: unknown[]) {
  let local: LocalWorker | null = null;
  // An interrupted run still stops the wrangler dev it started, then exits as interrupted.
  const stopLocal = () => void Promise.resolve(local?.stop()).finally(() => process.exit(130));
  process.once('SIGINT', stopLocal).once('SIGTERM', stopLocal);
  try {
    if (args.url === null) {
      host.err('starting wrangler dev (offline demo model unless .dev.vars names a model)…');
      local = await startLocalWorker(host.startWranglerDev);
    }
    const url = local?.url ?? (args.url as string);
    const target = apiTarget(url, local?.key ?? (args.key as string));
    const startedAt = new Date().toISOString();
    const results = await runSuite(cases, target, {
      concurrency: args.concurrency,
      timeoutSeconds: args.timeoutSeconds,
      onResult: (result) => host.err(`${result.passed ? 'pass' : 'FAIL'} ${printable(result.name)}`),
    });
    const comparison = baseline ? compareWithBaseline(baseline, results) : null;
    return { results, startedAt, url, comparison };
  } finally {
    process.off('SIGINT', stopLocal).off('SIGTERM', stopLocal);
    await local?.stop();
  }
}

async function runSuiteFile(args: EvalArguments, host: MainHost): Promise<number> {
  const suite = await loadSuite(args.suite as string);
  const baseline = args.baseline === null ? null : await readBaseline(args.baseline);
  const { results, startedAt, url, comparison } = await runCases(args, baseline, host, suite.cases);
  const summary = summarize(results);
  host.out(`${formatResults(results)}\n\n${formatSummary(summary)}`);
  if (comparison) host.out(formatComparison(comparison));
  if (args.out !== null) {
    const record: RunRecord = { version: 1, suite: args.suite as string, startedAt, url, cases: results, summary };
    await writeFile(args.out, `${JSON.stringify(record, null, 2)}\n`);
  }
  const regressed = (comparison?.regressions.length ?? 0) > 0;
  return summary.passed === summary.cases && !regressed ? 0 : 1;
}

export async function main(argv: readonly string[], env: Record<string, string | undefined>, host: MainHost) {
  let args: EvalArguments;
  try {
    args = parseArguments(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    host.err(`${error.message}\n${USAGE}`);
    return 2;
  }
  try {
    return args.fromThread !== null ? await printCase(args, host) : await runSuiteFile(args, host);
  } catch (error) {
    host.err(printable((error as Error)?.message ?? String(error)));
    return 1;
  }
}
