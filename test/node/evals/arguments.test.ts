/**
 * The command line of `npm run eval` (EVAL-3): defaults, flags in both spellings, the environment's
 * EVAL_URL and EVAL_API_KEY, and a usage error for anything it cannot read.
 */
import { describe, expect, it } from 'vitest';
import { parseArguments, UsageError } from '../../../evals/runner/arguments.js';

describe('eval command line', () => {
  it('EVAL-3: a suite alone runs on a wrangler dev of its own, 4 at a time, 120 s a case', () => {
    expect(parseArguments(['evals/example.eval.ts'], {})).toEqual({
      suite: 'evals/example.eval.ts',
      fromThread: null,
      url: null,
      key: null,
      concurrency: 4,
      timeoutSeconds: 120,
      out: null,
      baseline: null,
    });
  });

  it('EVAL-3: flags as `--flag value` or `--flag=value`; the environment supplies --url and --key', () => {
    const args = parseArguments(
      [
        's.ts',
        '--url=https://agents.example.com',
        '--key',
        'k1',
        '--concurrency',
        '2',
        '--timeout=1.5',
        '--out',
        'o.json',
        '--baseline',
        'b.json',
      ],
      { EVAL_URL: 'http://ignored', EVAL_API_KEY: 'ignored' },
    );
    expect(args).toMatchObject({
      url: 'https://agents.example.com',
      key: 'k1',
      concurrency: 2,
      timeoutSeconds: 1.5,
      out: 'o.json',
      baseline: 'b.json',
    });
    expect(parseArguments(['s.ts'], { EVAL_URL: 'https://a.example', EVAL_API_KEY: 'k' })).toMatchObject({
      url: 'https://a.example',
      key: 'k',
    });
    expect(parseArguments(['s.ts'], { EVAL_URL: '', EVAL_API_KEY: '' })).toMatchObject({ url: null, key: null });
    expect(parseArguments(['--from-thread', 'abc'], {})).toMatchObject({ suite: null, fromThread: 'abc' });
  });

  it('EVAL-3: what it cannot read is a usage error saying why', () => {
    const refused = (argv: string[], env: Record<string, string> = {}) => {
      try {
        parseArguments(argv, env);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
    };
    expect(refused([])).toBe('name a suite file, or --from-thread <thread id>');
    expect(refused(['a.ts', 'b.ts'])).toBe('one suite at a time, not a.ts, b.ts');
    expect(refused(['a.ts', '--url', 'http://x'])).toBe('--url needs --key (or EVAL_API_KEY)');
    expect(refused(['a.ts', '--url', 'file:///etc/passwd', '--key', 'k'])).toMatch(/^--url must be an http\(s\) URL/);
    expect(refused(['a.ts', '--concurrency', '0'])).toBe('--concurrency must be a positive whole number, not "0"');
    expect(refused(['a.ts', '--concurrency', '1.5'])).toBe('--concurrency must be a positive whole number, not "1.5"');
    expect(refused(['a.ts', '--timeout', 'soon'])).toBe('--timeout must be a positive number, not "soon"');
    expect(refused(['a.ts', '--timeout'])).toBe('--timeout needs a value');
    expect(refused(['a.ts', '--verbose'])).toBe('unknown option --verbose');
    expect(refused(['a.ts', '--from-thread', 't'])).toBe('--from-thread takes no suite file');
  });
});
