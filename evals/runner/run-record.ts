/**
 * A run as `--out` writes it and `--baseline` reads it back: the suite, when, where, every case's
 * result and the summary. A baseline file is read as untrusted JSON: a file that is not such a
 * record is refused with the reason, naming the file.
 */
import { readFile } from 'node:fs/promises';
import type { CaseResult } from './run-suite.js';
import type { RunSummary } from './stats.js';

export interface RunRecord {
  version: 1;
  suite: string;
  startedAt: string;
  url: string;
  cases: CaseResult[];
  summary: RunSummary;
}

/** What a baseline needs of each case. */
export interface BaselineCase {
  name: string;
  passed: boolean;
  tokens: number;
  costUsd: number;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function baselineCase(value: unknown, index: number): BaselineCase {
  const entry = value as Partial<BaselineCase> | null;
  if (
    typeof entry !== 'object' ||
    entry === null ||
    typeof entry.name !== 'string' ||
    typeof entry.passed !== 'boolean' ||
    !isFiniteNumber(entry.tokens) ||
    !isFiniteNumber(entry.costUsd)
  ) {
    throw new Error(`cases[${index}] needs name, passed, tokens and costUsd`);
  }
  return { name: entry.name, passed: entry.passed, tokens: entry.tokens, costUsd: entry.costUsd };
}

/** The cases of a previous run's JSON; throws naming the file and what is wrong with it. */
export async function readBaseline(path: string): Promise<BaselineCase[]> {
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as { cases?: unknown };
    if (!Array.isArray(record?.cases)) throw new Error('it has no cases list');
    return record.cases.map(baselineCase);
  } catch (error) {
    throw new Error(`baseline ${path} cannot be used: ${(error as Error).message}`);
  }
}
