/**
 * Regular expressions from a model or a caller, run in linear time. JavaScript's own engine
 * backtracks: `^(a+)+$` over 30 characters takes minutes, and no timeout can interrupt a match once it
 * has started, so one such pattern would stall every thread sharing the isolate. These patterns run on
 * RE2JS, the JavaScript port of RE2, whose matching time grows with the text times the size of the
 * pattern, never exponentially.
 *
 * The syntax is JavaScript's, translated to RE2's. What RE2 cannot run in linear time is refused
 * before anything runs, with the construct named (regex-constructs.ts): lookaheads and
 * backreferences. Lookbehinds run when they capture nothing. Where the two engines read the same
 * syntax differently, RE2 decides: `\s` is ASCII whitespace, `.` also matches `\r`, and `^`/`$` in
 * multiline mode stop at `\n` only.
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { PatternRefused } from './pattern-refused.js';
import { unsupportedConstruct } from './regex-constructs.js';

/** The longest pattern accepted, in characters. */
export const MAX_PATTERN_CHARS = 4096;
/**
 * The largest compiled program accepted (RE2's measure of a pattern's cost: about one instruction
 * per character or repetition). Matching costs at most the text's length times this.
 */
export const MAX_PROGRAM_SIZE = 20_000;

export interface LinearRegexFlags {
  ignoreCase?: boolean;
  multiline?: boolean;
  dotAll?: boolean;
}

/** A compiled pattern: `test` and `exec` as on RegExp, in linear time. */
export type LinearRegex = Pick<RE2JS, 'test' | 'exec' | 'matcher' | 'groupCount' | 'namedGroups' | 'programSize'>;

function refused(pattern: string, reason: string): PatternRefused {
  return new PatternRefused(`invalid regular expression ${JSON.stringify(pattern)}: ${reason}`);
}

/** RE2's parse error, as the writer can act on it. */
function syntaxReason(error: RE2JSSyntaxException): string {
  const message = error.message.replace(/^error parsing regexp: /, '');
  if (message.startsWith('invalid repeat count')) return `${message} (a repeat count may be at most 1000)`;
  if (message.startsWith('invalid capture in lookbehind')) return `${message} (a lookbehind may not capture)`;
  return message;
}

/**
 * What JavaScript says of a pattern that is not valid in its syntax (`Unterminated group`), or null.
 * Only parsed, never run: parsing does not backtrack.
 */
function javascriptSyntaxError(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  }
}

function flagBits(flags: LinearRegexFlags): number {
  let bits = RE2JS.LOOKBEHINDS;
  if (flags.ignoreCase) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.multiline) bits |= RE2JS.MULTILINE;
  if (flags.dotAll) bits |= RE2JS.DOTALL;
  return bits;
}

/**
 * Compiles a JavaScript-syntax pattern for linear-time matching. Throws PatternRefused, naming the
 * construct, for a pattern that is not valid, cannot run in linear time, or is too large.
 */
export function compileLinearRegex(pattern: string, flags: LinearRegexFlags = {}): LinearRegex {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw refused(
      pattern.slice(0, 40),
      `the pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are accepted`,
    );
  }
  const construct = unsupportedConstruct(pattern);
  if (construct) {
    throw refused(
      pattern,
      `${construct} is not supported: patterns run on a linear-time engine, which has no form for it`,
    );
  }
  const javascriptError = javascriptSyntaxError(pattern);
  if (javascriptError) throw refused(pattern, javascriptError);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), flagBits(flags));
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) throw refused(pattern, syntaxReason(error));
    throw refused(pattern, (error as Error).message);
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) {
    throw refused(
      pattern,
      `the pattern is too large to run (size ${compiled.programSize()}, at most ${MAX_PROGRAM_SIZE})`,
    );
  }
  return compiled;
}

/**
 * A pattern the runtime itself builds (from a permission rule's or a command's glob), compiled for
 * linear time. Its source is RE2 syntax already; a pattern that does not compile is a bug, not input.
 */
export function compileBuiltPattern(source: string, flags: LinearRegexFlags = {}): LinearRegex {
  return RE2JS.compile(source, flagBits(flags));
}
