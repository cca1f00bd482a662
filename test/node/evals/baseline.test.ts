/**
 * A run compared with a baseline (EVAL-5): a case that passed and now fails, or whose tokens or cost
 * rose by more than 20 %, is a regression naming the case and what regressed; a baseline file that is
 * not a run's JSON is refused naming the file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../evals/runner/baseline.js';
import { readBaseline } from '../../../evals/runner/run-record.js';
import type { CaseResult } from '../../../evals/runner/run-suite.js';
import { formatComparison } from '../../../evals/runner/summary-table.js';

const result = (name: string, passed: boolean, tokens: number, costUsd: number): CaseResult => ({
  name,
  agent: 'assistant',
  passed,
  failures: passed ? [] : ['contains: ...'],
  turnMs: [10],
  tokens,
  costUsd,
  threadId: null,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'eval-baseline-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('baseline comparison', () => {
  it('EVAL-5: passed-then-failing and more than 20 % more tokens or cost are regressions, named', () => {
    const baseline = [
      { name: 'steady', passed: true, tokens: 1000, costUsd: 0.01 },
      { name: 'now fails', passed: true, tokens: 1000, costUsd: 0.01 },
      { name: 'still fails', passed: false, tokens: 1000, costUsd: 0.01 },
      { name: 'hungrier', passed: true, tokens: 1000, costUsd: 0.01 },
      { name: 'dearer', passed: true, tokens: 1000, costUsd: 0.01 },
      { name: 'unpriced', passed: true, tokens: 0, costUsd: 0 },
      { name: 'dropped', passed: true, tokens: 10, costUsd: 0 },
    ];
    const comparison = compareWithBaseline(baseline, [
      result('steady', true, 1200, 0.012),
      result('now fails', false, 1000, 0.01),
      result('still fails', false, 1000, 0.01),
      result('hungrier', true, 1201, 0.01),
      result('dearer', true, 1000, 0.0121),
      result('unpriced', true, 500, 0),
      result('added', true, 10, 0),
    ]);
    expect(comparison.regressions).toEqual([
      { name: 'now fails', what: 'passed before, fails now' },
      { name: 'hungrier', what: 'tokens 1000 → 1201 (+20%)' },
      { name: 'dearer', what: 'cost $0.01 → $0.0121 (+21%)' },
    ]);
    expect(comparison.added).toEqual(['added']);
    expect(comparison.removed).toEqual(['dropped']);
    const text = formatComparison(comparison);
    expect(text).toContain('REGRESSION now fails: passed before, fails now');
    expect(text).toContain('REGRESSION hungrier: tokens 1000 → 1201');
    expect(text).toContain('new since the baseline: added');
    expect(formatComparison(compareWithBaseline(baseline.slice(0, 1), [result('steady', true, 1000, 0.01)]))).toBe(
      'no regression against the baseline',
    );
  });

  it('EVAL-5: a run record written by --out is a baseline', async () => {
    const path = join(dir, 'run.json');
    const record = { version: 1, suite: 's', startedAt: '', url: '', cases: [result('a', true, 5, 0)], summary: {} };
    await writeFile(path, JSON.stringify(record));
    expect(await readBaseline(path)).toEqual([{ name: 'a', passed: true, tokens: 5, costUsd: 0 }]);
  });

  it('EVAL-7: a baseline that is missing, not JSON or not a run record is refused naming the file', async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, '{ cases: ');
    const noCases = join(dir, 'no-cases.json');
    await writeFile(noCases, '{"runs": []}');
    const badCase = join(dir, 'bad-case.json');
    await writeFile(badCase, JSON.stringify({ cases: [{ name: 'a', passed: 'yes', tokens: 1, costUsd: 0 }] }));
    await expect(readBaseline(join(dir, 'absent.json'))).rejects.toThrow(
      /^baseline .*absent\.json cannot be used: ENOENT/,
    );
    await expect(readBaseline(notJson)).rejects.toThrow(/^baseline .*not\.json cannot be used: .*JSON/);
    await expect(readBaseline(noCases)).rejects.toThrow(/no-cases\.json cannot be used: it has no cases list$/);
    await expect(readBaseline(badCase)).rejects.toThrow(/cases\[0\] needs name, passed, tokens and costUsd$/);
  });
});
