/**
 * The constructs of JavaScript's regular-expression syntax that a linear-time engine (RE2) has no
 * form for, found before the pattern is translated, so the refusal names what the writer wrote
 * rather than what a translation made of it: lookaheads, backreferences by number or by name, and
 * escapes of a letter that JavaScript reads as the letter itself but RE2 reads otherwise (`\z` is the
 * end of the text to RE2, `\Q` starts a quotation). Lookbehinds are left to the engine, which runs
 * them in linear time when they capture nothing.
 */

/** Letter escapes JavaScript and RE2 read alike (`\k` is a backreference, handled on its own). */
const SHARED_LETTER_ESCAPES = new Set([
  'd',
  'D',
  'w',
  'W',
  's',
  'S',
  'b',
  'B',
  'n',
  'r',
  't',
  'v',
  'f',
  'c',
  'x',
  'u',
  'p',
  'P',
]);

function isLetter(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z]$/.test(char);
}

/** What an escape at `index` (the backslash) is, when it has no linear-time meaning; else null. */
function escapeProblem(pattern: string, index: number, inClass: boolean): string | null {
  const next = pattern[index + 1];
  if (!inClass && next !== undefined && next >= '1' && next <= '9') {
    const digits = /^\d+/.exec(pattern.slice(index + 1))?.[0] ?? next;
    return `a backreference (\\${digits})`;
  }
  if (next === 'k') return pattern[index + 2] === '<' ? 'a named backreference (\\k<name>)' : 'the escape \\k';
  if (isLetter(next) && !SHARED_LETTER_ESCAPES.has(next as string)) return `the escape \\${next}`;
  return null;
}

/**
 * The first construct of `pattern` (JavaScript syntax) that cannot run in linear time, described for
 * a message, or null when there is none.
 */
export function unsupportedConstruct(pattern: string): string | null {
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      const problem = escapeProblem(pattern, index, inClass);
      if (problem) return problem;
      index++;
      continue;
    }
    if (inClass) {
      // In JavaScript the first unescaped `]` closes a class, even right after `[` (`[]` is empty).
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(' && pattern[index + 1] === '?') {
      if (pattern[index + 2] === '=') return 'a lookahead (?=...)';
      if (pattern[index + 2] === '!') return 'a negative lookahead (?!...)';
    }
  }
  return null;
}
