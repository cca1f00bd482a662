/**
 * Patterns from models and callers, run without backtracking: regular expressions in JavaScript
 * syntax on a linear-time engine (RE2JS), globs translated to the same engine, and the refusal that
 * names a construct neither can run in linear time.
 */
export { compileGlob, type GlobOptions } from './glob-pattern.js';
export {
  compileBuiltPattern,
  compileLinearRegex,
  type LinearRegex,
  type LinearRegexFlags,
  MAX_PATTERN_CHARS,
  MAX_PROGRAM_SIZE,
} from './linear-regex.js';
export { PatternRefused } from './pattern-refused.js';
export { unsupportedConstruct } from './regex-constructs.js';
