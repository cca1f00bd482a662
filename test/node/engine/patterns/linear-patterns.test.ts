/**
 * The engine's pattern compilers (engine/patterns): regular expressions in JavaScript syntax and
 * globs, run on a linear-time engine. Catastrophic patterns from the hostile corpus are answered
 * (the same answer JavaScript's RegExp gives on lines short enough for it), constructs with no
 * linear-time form are refused by name, ordinary patterns mean what they mean to RegExp, and globs
 * mean what they mean to picomatch (the library they replace for model-written globs).
 */
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob, compileLinearRegex, PatternRefused } from '../../../../src/engine/patterns/index.js';
import { decide } from '../../../../src/engine/permissions/index.js';
import { canonicalCommand, commandPatternMatches } from '../../../../src/engine/shell/index.js';
import { htmlToText } from '../../../../src/tools/web-fetch/html-to-text.js';
import {
  CATASTROPHIC_GLOBS,
  CATASTROPHIC_REGEXES,
  pageWithSpaceRun,
  UNSUPPORTED_REGEXES,
} from '../../../support/hostile-corpus.js';

/** A prefix of a catastrophic line short enough for RegExp to answer in a few milliseconds. */
function shortened(line: string): string {
  return line.length > 1000 ? `${line.slice(0, 8)}${line.slice(-4)}` : `${line.slice(0, 10)}${line.slice(-1)}`;
}

describe('compileLinearRegex', () => {
  it('answers every catastrophic pattern on its line, as RegExp answers on a short one', () => {
    for (const entry of CATASTROPHIC_REGEXES) {
      const regex = compileLinearRegex(entry.pattern);
      expect(regex.test(entry.line), entry.label).toBe(entry.matches);
      const short = shortened(entry.line);
      expect(regex.test(short), `${entry.label} (short)`).toBe(new RegExp(entry.pattern).test(short));
    }
  });

  it('stays linear on a line of a megabyte', () => {
    const line = `${'a'.repeat(1 << 20)}!`;
    for (const entry of CATASTROPHIC_REGEXES)
      expect(compileLinearRegex(entry.pattern).test(line), entry.label).toBeTypeOf('boolean');
  });

  it('refuses what has no linear-time form, naming the construct', () => {
    for (const entry of UNSUPPORTED_REGEXES) {
      expect(() => compileLinearRegex(entry.pattern), entry.pattern).toThrow(PatternRefused);
      expect(() => compileLinearRegex(entry.pattern), entry.pattern).toThrow(entry.names);
    }
    expect(() => compileLinearRegex('a\\z')).toThrow(/the escape \\z is not supported/);
    expect(() => compileLinearRegex('(unclosed')).toThrow(
      /invalid regular expression "\(unclosed": Unterminated group/,
    );
    expect(() => compileLinearRegex('a'.repeat(5000))).toThrow(/at most 4096/);
  });

  it('reads ordinary JavaScript syntax as RegExp does', () => {
    const cases: [string, string, string?][] = [
      ['function\\s+\\w+', 'export function main() {'],
      ['^(const )?alpha', 'const alpha = 1'],
      ['(?<year>\\d{4})-(?<month>\\d{2})', 'on 2024-05-01'],
      ['\\bfoo\\b', 'a foo b'],
      ['\\u0041\\x42\\u{43}', 'ABC', 'u'],
      ['[^]x', '\nx'],
      ['a.c', 'abc'],
      ['TODO|FIXME', 'fixme later', 'i'],
      ['\\p{L}+', 'café', 'u'],
      ['[\\d\\-]+$', '12-34'],
      ['\\/\\*', '/* c */'],
      ['(?<=\\$)\\d+', 'cost $42'],
      ['(?<!x)y', 'ay'],
      ['a{2}', 'a'],
      ['a{', 'a{'],
      ['😀+', '😀😀', 'u'],
    ];
    for (const [pattern, text, flags = ''] of cases) {
      const expected = new RegExp(pattern, flags).test(text);
      expect(compileLinearRegex(pattern, { ignoreCase: flags.includes('i') }).test(text), pattern).toBe(expected);
    }
    const match = compileLinearRegex('(?<year>\\d{4})-(?<month>\\d{2})').exec(
      'on 2024-05-01',
    ) as RegExpExecArray | null;
    expect(match?.index).toBe(3);
    expect(match?.groups).toEqual({ year: '2024', month: '05' });
  });
});

describe('compileGlob', () => {
  const paths = [
    'a.ts',
    'src/a.ts',
    'src/b.js',
    'src/deep/c.ts',
    'src/.hidden.ts',
    '.env',
    'docs/x.md',
    'docs/a b.md',
    'a/b/c/d.txt',
    'x{1}.ts',
    'file(1).txt',
    'a+b',
    'notes/2024-05.md',
    'many/1.txt',
    'weird$^.txt',
  ];
  const globs = [
    '*.ts',
    '**/*.ts',
    'src/*',
    'src/**',
    'src/**/*.ts',
    '**',
    '**/*',
    '*',
    '?.ts',
    'src/?.ts',
    '[ab].ts',
    '[a-c].*',
    '[^a].ts',
    '**/[[:alpha:]].ts',
    '*.{ts,js}',
    'src/{a,b}.{ts,js}',
    '{src,docs}/**',
    '{a,{b,c}}.ts',
    'docs/a b.md',
    'x\\{1\\}.ts',
    'file(1).txt',
    'a+b',
    'notes/*-??.md',
    '**/d.txt',
    'a/**/d.txt',
    'a/**',
    '@(a|b).ts',
    'src/+(a|b).*',
    '*(a).ts',
    '?(x)a.ts',
    '*.{1..3}',
    'weird$^.txt',
    '.env',
    '**/.*',
  ];

  it('matches what picomatch matches (hidden files included) on ordinary globs', () => {
    for (const glob of globs) {
      const ours = compileGlob(glob);
      const theirs = picomatch(glob, { dot: true });
      for (const path of paths) expect(ours(path), `${glob} on ${path}`).toBe(theirs(path));
    }
  });

  it('matches a glob without a slash against the name alone when asked (grep --glob)', () => {
    const byName = compileGlob('*.ts', { basename: true });
    expect(['a.ts', 'src/a.ts', 'src/deep/c.ts', 'src/b.js'].map(byName)).toEqual([true, true, true, false]);
    expect(compileGlob('src/*.ts', { basename: true })('x/src/a.ts')).toBe(false);
  });

  it('answers the catastrophic globs of the hostile corpus on their names', () => {
    for (const entry of CATASTROPHIC_GLOBS) {
      expect(compileGlob(entry.glob)(entry.name), entry.label).toBe(false);
      expect(compileGlob(entry.glob)(entry.name.replace(/b$/, '')), entry.label).toBe(!entry.glob.endsWith('c'));
    }
  });

  it('refuses a negation, which has no linear-time form', () => {
    expect(() => compileGlob('!(a).ts')).toThrow(PatternRefused);
    expect(() => compileGlob('src/!(*.d).ts')).toThrow(/negation !\(\.\.\.\) is not supported/);
  });

  it('takes unclosed brackets, braces and groups literally', () => {
    expect(compileGlob('x[')('x[')).toBe(true);
    expect(compileGlob('{a,b')('{a,b')).toBe(true);
    expect(compileGlob('+(a')('+(a')).toBe(true);
    expect(compileGlob('a\\')('a\\')).toBe(true);
  });
});

describe('permission rules and command patterns', () => {
  // Written by a caller (a project rule) and matched against what a model sends: natively, the regex
  // these become backtracks for seconds on a subject of a few hundred characters.
  const stars = '*a*a*a*a*a*a*b';
  const long = 'a'.repeat(5000);

  it('decide a rule of many stars against a long subject at once', () => {
    const rule = { permission: '*', pattern: stars, action: 'deny' as const, scope: 'project' as const };
    expect(decide([rule], { permissions: ['grep'], subject: long, kind: 'text' }).action).toBe('ask');
    expect(decide([rule], { permissions: ['grep'], subject: `${long}b`, kind: 'text' }).action).toBe('deny');
    const path = { ...rule, pattern: `/${stars}` };
    expect(decide([path], { permissions: ['read'], subject: `/${long}`, kind: 'path' }).action).toBe('ask');
  });

  it('match a command pattern of many stars against a long operand at once', () => {
    expect(commandPatternMatches(`echo ${stars}`, canonicalCommand(['echo', long]))).toBe(false);
    expect(commandPatternMatches(`echo ${stars}`, canonicalCommand(['echo', `${long}b`]))).toBe(true);
  });
});

describe('fixed patterns over hostile text', () => {
  it('a fetched page whose code block holds a long run of spaces is rendered at once', () => {
    const markdown = htmlToText(pageWithSpaceRun(400_000), { format: 'markdown', baseUrl: 'https://site.example/' });
    expect(markdown).toContain('b');
    expect(markdown.length).toBeGreaterThan(400_000);
  });
});
