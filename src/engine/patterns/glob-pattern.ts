/**
 * Globs from models and callers (the `glob` tool, grep's `glob`, `state.findFiles`), matched in linear
 * time. A glob library compiles a glob to a JavaScript regular expression, and one crafted glob
 * (`*(+(a))`, or `*a*a*a*a*b` over a long name) backtracks for minutes; so a glob is translated here
 * to RE2 syntax and runs on the same linear-time engine as the runtime's other patterns.
 *
 * The syntax, with hidden files matched like any other: `*` any run of characters within one path
 * segment, `**` as a whole segment any number of segments (`a/**` also matches `a`), `?` one
 * character but `/`, `[abc]`, `[a-z]`, `[!a]` or `[^a]` and `[[:alpha:]]` one character of a set,
 * `{a,b}` either alternative (nested as needed; `{a..e}` a range of single characters), `\` quotes the
 * next character, and the extended forms `@(a|b)`, `?(a|b)`, `*(a|b)` and `+(a|b)`. `!(a|b)` is
 * refused: a negation has no linear-time form.
 */
import { compileBuiltPattern } from './linear-regex.js';
import { PatternRefused } from './pattern-refused.js';

/** The longest glob accepted, in characters. */
const MAX_GLOB_CHARS = 4096;

export interface GlobOptions {
  /** A glob without `/` is matched against the last segment of the path (as in `rg -g`). */
  basename?: boolean;
}

const RE2_SPECIAL = /[\\^$.|?*+()[\]{}]/;
const EXTGLOB_SUFFIX: Record<string, string> = { '@': '', '?': '?', '+': '+', '*': '*' };

function literal(char: string): string {
  return RE2_SPECIAL.test(char) ? `\\${char}` : char;
}

/** The index of the `close` matching the `open` at `start`, skipping escapes and nested pairs; -1 if none. */
function closing(glob: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let index = start; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') index++;
    else if (char === open) depth++;
    else if (char === close && --depth === 0) return index;
  }
  return -1;
}

/** The end (index of `]`) of a bracket expression starting at `start`, or -1 when it is not one. */
function classEnd(glob: string, start: number): number {
  let index = start + 1;
  if (glob[index] === '!' || glob[index] === '^') index++;
  if (glob[index] === ']') index++;
  for (; index < glob.length; index++) {
    const char = glob[index];
    if (char === '\\') index++;
    else if (char === '[' && glob[index + 1] === ':') {
      const end = glob.indexOf(':]', index + 2);
      if (end !== -1) index = end + 1;
    } else if (char === ']') return index;
  }
  return -1;
}

/** A bracket expression as an RE2 class. */
function classSource(body: string): string {
  let negated = false;
  let rest = body;
  if (rest.startsWith('!') || rest.startsWith('^')) {
    negated = true;
    rest = rest.slice(1);
  }
  let out = '';
  for (let index = 0; index < rest.length; index++) {
    const char = rest[index] as string;
    if (char === '[' && rest[index + 1] === ':') {
      const end = rest.indexOf(':]', index + 2);
      if (end !== -1) {
        out += rest.slice(index, end + 2);
        index = end + 1;
        continue;
      }
    }
    if (char === '\\' && index + 1 < rest.length) {
      const next = rest[++index] as string;
      out += /[A-Za-z0-9]/.test(next) ? next : `\\${next}`;
    } else if (char === '-' && index > 0 && index < rest.length - 1) out += '-';
    else out += /[A-Za-z0-9]/.test(char) ? char : `\\${char}`;
  }
  return `[${negated ? '^' : ''}${out}]`;
}

class GlobTranslator {
  private index = 0;

  constructor(private readonly glob: string) {}

  /** The source up to (not including) one of `stops` at this level, or to the end. */
  translate(stops = ''): string {
    let out = '';
    while (this.index < this.glob.length) {
      const char = this.glob[this.index] as string;
      if (stops.includes(char)) return out;
      out += this.next(char, stops);
    }
    return out;
  }

  private next(char: string, stops: string): string {
    const glob = this.glob;
    const at = this.index;
    if (char === '\\') {
      this.index += 2;
      return at + 1 < glob.length ? literal(glob[at + 1] as string) : '\\\\';
    }
    if (glob[at + 1] === '(' && char in EXTGLOB_SUFFIX) return this.extglob(char);
    if (char === '!' && glob[at + 1] === '(') {
      throw new PatternRefused(
        `invalid glob ${JSON.stringify(glob)}: a negation !(...) is not supported; list what to match instead`,
      );
    }
    if (char === '*') return this.stars(stops);
    if (char === '/' && this.globstarFollows(at + 1, stops)) {
      this.index += 3;
      return '(?:/.*)?';
    }
    this.index++;
    if (char === '?') return '[^/]';
    if (char === '[') {
      const end = classEnd(glob, at);
      if (end === -1) return '\\[';
      this.index = end + 1;
      return classSource(glob.slice(at + 1, end));
    }
    if (char === '{') return this.braces(at);
    return literal(char);
  }

  /** Whether `**` stands at `from` as the last segment (end of the glob or of the enclosing group). */
  private globstarFollows(from: number, stops: string): boolean {
    if (this.glob.slice(from, from + 2) !== '**') return false;
    const after = this.glob[from + 2];
    return after === undefined || stops.includes(after);
  }

  private stars(stops: string): string {
    const glob = this.glob;
    const start = this.index;
    while (glob[this.index] === '*') this.index++;
    const after = glob[this.index];
    const segmentStart = start === 0 || glob[start - 1] === '/';
    if (this.index - start < 2 || !segmentStart) return '[^/]*';
    if (after === '/') {
      this.index++;
      return '(?:[^/]*/)*';
    }
    if (after === undefined || stops.includes(after)) return '.*';
    return '[^/]*';
  }

  private extglob(kind: string): string {
    const open = this.index + 1;
    if (closing(this.glob, open, '(', ')') === -1) {
      this.index++;
      return literal(kind);
    }
    this.index = open + 1;
    const alternatives = [this.translate('|)')];
    while (this.glob[this.index] === '|') {
      this.index++;
      alternatives.push(this.translate('|)'));
    }
    this.index++; // ')'
    return `(?:${alternatives.join('|')})${EXTGLOB_SUFFIX[kind]}`;
  }

  private braces(at: number): string {
    const end = closing(this.glob, at, '{', '}');
    if (end === -1) return '\\{';
    const range = /^(.)\.\.(.)$/su.exec(this.glob.slice(at + 1, end));
    if (range && (range[1] as string) <= (range[2] as string)) {
      this.index = end + 1;
      return `[${literal(range[1] as string)}-${literal(range[2] as string)}]`;
    }
    const alternatives = [this.translate(',}')];
    while (this.glob[this.index] === ',') {
      this.index++;
      alternatives.push(this.translate(',}'));
    }
    this.index++; // '}'
    return alternatives.length === 1 ? `\\{${alternatives[0]}\\}` : `(?:${alternatives.join('|')})`;
  }
}

/** The RE2 source of a glob, anchored at both ends. Throws PatternRefused. */
export function globSource(glob: string): string {
  if (glob.length > MAX_GLOB_CHARS) {
    throw new PatternRefused(
      `invalid glob: it is ${glob.length} characters long; at most ${MAX_GLOB_CHARS} are accepted`,
    );
  }
  return `^(?:${new GlobTranslator(glob).translate()})$`;
}

/** A matcher of thread paths (without the leading `/`) for a glob. Throws PatternRefused. */
export function compileGlob(glob: string, options: GlobOptions = {}): (path: string) => boolean {
  let regex: ReturnType<typeof compileBuiltPattern>;
  try {
    regex = compileBuiltPattern(globSource(glob), { dotAll: true });
  } catch (error) {
    if (error instanceof PatternRefused) throw error;
    throw new PatternRefused(`invalid glob ${JSON.stringify(glob)}: ${(error as Error).message}`);
  }
  if (options.basename && !glob.includes('/')) {
    return (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
  }
  return (path) => regex.test(path);
}
