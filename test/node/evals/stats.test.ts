/**
 * The figures and the table of a run (EVAL-4): nearest-rank p50 and p95 over every turn, pass rate
 * and totals, and a table where text from the suite or the model cannot drive the terminal.
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../evals/runner/run-suite.js';
import { percentile, summarize } from '../../../evals/runner/stats.js';
import { formatResults, formatSummary } from '../../../evals/runner/summary-table.js';
import { HOSTILE_EVAL_TEXT } from '../../support/hostile-corpus.js';

const result = (name: string, passed: boolean, turnMs: number[], tokens = 0, costUsd = 0): CaseResult => ({
  name,
  agent: 'assistant',
  passed,
  failures: passed ? [] : ['contains: "x" not in the final text "y"'],
  turnMs,
  tokens,
  costUsd,
  threadId: null,
});

describe('run figures', () => {
  it('EVAL-4: p50 and p95 are nearest-rank percentiles', () => {
    const twenty = Array.from({ length: 20 }, (_, index) => (20 - index) * 100);
    expect(percentile(twenty, 50)).toBe(1000);
    expect(percentile(twenty, 95)).toBe(1900);
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([], 50)).toBeNull();
  });

  it('EVAL-4: the summary counts every turn of every case, and totals tokens and cost', () => {
    const summary = summarize([
      result('a', true, [100, 300], 500, 0.01),
      result('b', false, [200], 250, 0.02),
      result('c', true, [], 0, 0),
    ]);
    expect(summary).toEqual({
      cases: 3,
      passed: 2,
      passRate: 2 / 3,
      totalTokens: 750,
      totalCostUsd: 0.03,
      turns: 3,
      p50TurnMs: 200,
      p95TurnMs: 300,
    });
    expect(formatSummary(summary)).toBe(
      [
        'pass rate 66.7% (2/3)',
        'total tokens 750, total cost $0.0300',
        'turn time over 3 turns: p50 0.20s, p95 0.30s',
      ].join('\n'),
    );
    expect(summarize([])).toMatchObject({ cases: 0, passRate: 1, p50TurnMs: null });
  });

  it('EVAL-4: the table has a row per case and each failure under its case', () => {
    const table = formatResults([
      result('quick', true, [1500], 900, 0),
      result('broken', false, [250, 250], 12, 0.000123),
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^case\s+result\s+turn time\s+tokens\s+cost$/);
    expect(lines[1]).toMatch(/^quick\s+pass\s+1\.50s\s+900\s+\$0\.0000$/);
    expect(lines[2]).toMatch(/^broken\s+FAIL\s+0\.50s\s+12\s+\$0\.000123$/);
    expect(table).toContain('\nFAIL broken\n  - contains: "x" not in the final text "y"');
  });

  it('EVAL-4: control characters and bidirectional overrides in names and failures are shown escaped', () => {
    const hostile = result('\u001b[2Jwiped\u202eevil', false, [1]);
    hostile.failures = ['line one\nline two \u009b31m red \u0007'];
    const table = formatResults([hostile]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    expect(table).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(table).toContain('\\u001b[2Jwiped\\u202eevil');
    expect(table).toContain('line one\\nline two \\u009b31m red \\u0007');
    // Header, a row each, a blank line, then each case's FAIL line and its one failure: no line more.
    const corpus = formatResults(HOSTILE_EVAL_TEXT.map((text) => ({ ...result(text, false, [1]), failures: [text] })));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    expect(corpus).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(corpus.split('\n')).toHaveLength(2 + HOSTILE_EVAL_TEXT.length * 3);
  });
});
