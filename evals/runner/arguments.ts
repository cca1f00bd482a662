/**
 * The command line of `npm run eval`, read into options: the suite, or `--from-thread <id>`; where
 * the Worker is (`--url` and `--key`, else EVAL_URL and EVAL_API_KEY, else a `wrangler dev` the
 * runner starts); how many cases at once; the default time limit; the JSON record and the baseline.
 */

export const USAGE = `usage: npm run eval -- <suite.ts> [options]
       npm run eval -- --from-thread <thread id> [--url <base> --key <api key>]
options:
  --url <base>        a running Worker (or EVAL_URL); default: start wrangler dev with the offline demo model
  --key <api key>     its API key (or EVAL_API_KEY)
  --concurrency <n>   cases at once (default 4)
  --timeout <s>       time limit of a case that sets none (default 120)
  --out <file>        write the run as JSON
  --baseline <file>   compare with a previous run's JSON; a regression exits non-zero`;

export interface EvalArguments {
  suite: string | null;
  fromThread: string | null;
  url: string | null;
  key: string | null;
  concurrency: number;
  timeoutSeconds: number;
  out: string | null;
  baseline: string | null;
}

export class UsageError extends Error {}

const VALUED = ['--url', '--key', '--concurrency', '--timeout', '--out', '--baseline', '--from-thread'];

function positive(flag: string, text: string, integer: boolean): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new UsageError(
      `${flag} must be a positive ${integer ? 'whole number' : 'number'}, not ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function flagsOf(argv: readonly string[]): { flags: Map<string, string>; positional: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (!VALUED.includes(flag as string)) throw new UsageError(`unknown option ${flag}`);
    const value = inline ?? argv[++index];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    flags.set(flag as string, value);
  }
  return { flags, positional };
}

export function parseArguments(argv: readonly string[], env: Record<string, string | undefined>): EvalArguments {
  const { flags, positional } = flagsOf(argv);
  if (positional.length > 1) throw new UsageError(`one suite at a time, not ${positional.join(', ')}`);
  const fromThread = flags.get('--from-thread') ?? null;
  const suite = positional[0] ?? null;
  if (fromThread === null && suite === null) throw new UsageError('name a suite file, or --from-thread <thread id>');
  if (fromThread !== null && suite !== null) throw new UsageError('--from-thread takes no suite file');
  // An empty variable counts as unset, as a shell's `EVAL_URL= npm run eval` means.
  const url = flags.get('--url') ?? (env.EVAL_URL || null);
  const key = flags.get('--key') ?? (env.EVAL_API_KEY || null);
  if (url !== null && key === null) throw new UsageError('--url needs --key (or EVAL_API_KEY)');
  if (url !== null && !/^https?:\/\//.test(url))
    throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(url)}`);
  return {
    suite,
    fromThread,
    url,
    key,
    concurrency: flags.has('--concurrency') ? positive('--concurrency', flags.get('--concurrency') as string, true) : 4,
    timeoutSeconds: flags.has('--timeout') ? positive('--timeout', flags.get('--timeout') as string, false) : 120,
    out: flags.get('--out') ?? null,
    baseline: flags.get('--baseline') ?? null,
  };
}
