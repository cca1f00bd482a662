/**
 * A sandboxed program's regular expressions, on a linear-time engine (CODE-1), as JavaScript text for
 * the isolate's main module. JavaScript's own engine backtracks: `/^(a+)+$/.test('a'.repeat(30) + '!')`
 * runs for minutes, no guard call happens inside a match, and locally workerd has no CPU limit, so
 * one such regex would hold the whole process. Here every match a program makes runs on RE2JS
 * (isolate-re2js.ts, loaded on the first regex a program compiles), whose work is linear in the text
 * and counts against the run's limits: the engine calls the guard as it works (one tick per 64 of
 * its steps), so even an engine misled by replaced builtins ends in a limit.
 *
 * How every road to a match is covered:
 * - `RegExp` is replaced, and regex literals are rewritten by the instrumentation (instrument.ts) to
 *   a call of `<guard>.regexp(source, flags)`; both compile the pattern for RE2 (a construct with no
 *   linear-time form, such as a lookahead or a backreference, is a SyntaxError naming it) and return
 *   a real RegExp object whose own pattern is one that matches nothing, the program's pattern kept
 *   beside it. Subclasses work the same way.
 * - `RegExp.prototype.exec` runs the kept pattern on RE2; `test`, `match`, `matchAll`, `replace`,
 *   `replaceAll` and `search` (and the String methods that call them) reach it through `exec`, as the
 *   language defines. `split` is replaced outright, so it scans once instead of once per position.
 * - A regex made by the language itself from a string (`'text'.match('a+')`) is never handed to the
 *   program before `exec` reads its pattern and compiles it for RE2.
 * - Whatever a program does to reach the backtracking matcher anyway (an own `exec` that is not a
 *   function, a subclass hiding `exec`, a copy by `structuredClone`), the pattern that matcher sees is
 *   the one that matches nothing; `source` reports the program's pattern.
 * - `RegExp.prototype.compile`, which would put a new pattern in place, is refused, and `URLPattern`,
 *   whose patterns hold regexp groups the backtracking engine runs, is not there.
 *
 * Where the engines read syntax differently, RE2 decides: `\s` is ASCII whitespace, `.` also matches
 * `\r`, `^`/`$` with the `m` flag stop at `\n` only. The text defines `installLinearRegExp(guard)`; it
 * relies on the primordials main.js captures (`apply`, `construct`, `defineProperty`,
 * `getOwnPropertyDescriptor`, `toText`) and keeps its own originals in closures.
 */
import { RE2JS_SCRIPT } from './isolate-re2js.js';

const INSTALL_SOURCE = String.raw`
function installLinearRegExp(guard) {
  const NativeRegExp = RegExp;
  const proto = NativeRegExp.prototype;
  const nativeSource = getOwnPropertyDescriptor(proto, 'source').get;
  const nativeFlags = getOwnPropertyDescriptor(proto, 'flags').get;
  const { get: weakGet, set: weakSet } = WeakMap.prototype;
  const { get: cacheGet, set: cacheSet } = Map.prototype;
  const cacheSize = getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const { includes: stringIncludes, slice: sliceText } = String.prototype;
  const { max, min, trunc } = Math;
  const OriginalSyntaxError = SyntaxError;
  const OriginalTypeError = TypeError;
  // The pattern the backtracking matcher is given: it matches nothing, at once.
  const NOTHING = '[^\\s\\S]';
  const patterns = new WeakMap();
  const compiled = new Map();
  const SHARED_LETTER_ESCAPES = 'dDwWsSbBnrtvfcxupP';

  // The engine calls this as it works; one guard tick per 64 of its steps.
  let steps = 0;
  const tick = () => {
    steps = (steps + 1) | 0;
    if ((steps & 63) === 0) guard();
  };
  let engine = null;
  const engineNow = () => {
    if (engine === null) engine = loadLinearRegexEngine(tick);
    return engine;
  };

  const isLetter = (char) => (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z');

  // The first construct with no linear-time form (engine/patterns/regex-constructs.ts, the same rules).
  function unsupportedConstruct(pattern) {
    let inClass = false;
    for (let index = 0; index < pattern.length; index += 1) {
      const char = pattern[index];
      if (char === '\\') {
        const next = pattern[index + 1];
        if (!inClass && next >= '1' && next <= '9') return 'a backreference (\\' + next + ')';
        if (next === 'k') return pattern[index + 2] === '<' ? 'a named backreference (\\k<name>)' : 'the escape \\k';
        if (next !== undefined && isLetter(next) && !apply(stringIncludes, SHARED_LETTER_ESCAPES, [next])) {
          return 'the escape \\' + next;
        }
        index += 1;
      } else if (inClass) {
        if (char === ']') inClass = false;
      } else if (char === '[') inClass = true;
      else if (char === '(' && pattern[index + 1] === '?') {
        if (pattern[index + 2] === '=') return 'a lookahead (?=...)';
        if (pattern[index + 2] === '!') return 'a negative lookahead (?!...)';
      }
    }
    return null;
  }

  function refuse(source, flags, reason) {
    return new OriginalSyntaxError('Invalid regular expression: /' + source + '/' + flags + ': ' + reason +
      " (a program's regular expressions run on a linear-time engine)");
  }

  // The RE2 program of a pattern, by source and flags; compiled once per run.
  function programFor(source, flags) {
    const key = flags + '/' + source;
    const known = apply(cacheGet, compiled, [key]);
    if (known !== undefined) return known;
    const construct = unsupportedConstruct(source);
    if (construct !== null) throw refuse(source, flags, construct + ' is not supported');
    const { RE2JS } = engineNow();
    let bits = RE2JS.LOOKBEHINDS;
    if (apply(stringIncludes, flags, ['i'])) bits |= RE2JS.CASE_INSENSITIVE;
    if (apply(stringIncludes, flags, ['m'])) bits |= RE2JS.MULTILINE;
    if (apply(stringIncludes, flags, ['s'])) bits |= RE2JS.DOTALL;
    let program;
    try {
      program = RE2JS.compile(RE2JS.translateRegExp(source), bits);
    } catch (error) {
      throw refuse(source, flags, apply(sliceText, toText(error.message), [0, 500]));
    }
    if (apply(cacheSize, compiled, []) < 1024) apply(cacheSet, compiled, [key, program]);
    return program;
  }

  function describe(source, flags) {
    return {
      __proto__: null,
      source,
      flags,
      program: programFor(source, flags),
      global: apply(stringIncludes, flags, ['g']),
      sticky: apply(stringIncludes, flags, ['y']),
      indices: apply(stringIncludes, flags, ['d']),
    };
  }

  // What the sandbox knows of a regex: its pattern on RE2. A regex the language made from a string
  // ('text'.match('a+')) is met here first, before the program can hold it.
  function infoOf(regex) {
    const known = apply(weakGet, patterns, [regex]);
    if (known !== undefined) return known;
    let source;
    try {
      source = apply(nativeSource, regex, []);
    } catch {
      return null;
    }
    if (source === NOTHING) {
      throw new OriginalTypeError('this regular expression lost its pattern when it was copied (structuredClone); make it again with new RegExp(source, flags)');
    }
    const info = describe(source, apply(nativeFlags, regex, []));
    apply(weakSet, patterns, [regex, info]);
    return info;
  }

  function LinearRegExp(pattern, flags) {
    const target = new.target;
    const from = pattern !== null && (typeof pattern === 'object' || typeof pattern === 'function') ? infoOf(pattern) : null;
    if (target === undefined && from !== null && flags === undefined && pattern.constructor === LinearRegExp) return pattern;
    const source = from !== null ? from.source : pattern === undefined ? '(?:)' : toText(pattern);
    const flagText = flags === undefined ? (from !== null ? from.flags : '') : toText(flags);
    // JavaScript's own syntax check (and its escaping of the source); the object is never matched.
    const checked = construct(NativeRegExp, [source, flagText]);
    const info = describe(apply(nativeSource, checked, []), apply(nativeFlags, checked, []));
    const regex = construct(NativeRegExp, [NOTHING, flagText], target === undefined ? LinearRegExp : target);
    apply(weakSet, patterns, [regex, info]);
    return regex;
  }

  const setOwn = (object, key, value) =>
    defineProperty(object, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });

  function toLength(value) {
    const number = trunc(+value) || 0;
    return number <= 0 ? 0 : min(number, 9007199254740991);
  }

  // RegExpBuiltinExec, on RE2.
  function exec(string) {
    const info = infoOf(this);
    if (info === null) throw new OriginalTypeError('RegExp.prototype.exec called on an object that is not a RegExp');
    const text = toText(string);
    const moves = info.global || info.sticky;
    const from = moves ? toLength(this.lastIndex) : 0;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const matcher = info.program.matcher(text);
    if (!matcher.find(from) || (info.sticky && matcher.start() !== from)) {
      if (moves) this.lastIndex = 0;
      return null;
    }
    if (moves) this.lastIndex = matcher.end();
    const result = [];
    const indices = info.indices ? [] : null;
    const count = info.program.groupCount();
    for (let group = 0; group <= count; group += 1) {
      const value = matcher.group(group);
      setOwn(result, group, value === null ? undefined : value);
      if (indices !== null) setOwn(indices, group, value === null ? undefined : [matcher.start(group), matcher.end(group)]);
    }
    setOwn(result, 'index', matcher.start());
    setOwn(result, 'input', text);
    const names = info.program.namedGroups();
    let groups;
    for (const name in names) {
      if (groups === undefined) groups = { __proto__: null };
      const value = matcher.group(names[name]);
      setOwn(groups, name, value === null ? undefined : value);
    }
    setOwn(result, 'groups', groups);
    if (indices !== null) {
      setOwn(result, 'indices', indices);
      setOwn(indices, 'groups', undefined);
    }
    return result;
  }

  // RegExp.prototype[Symbol.split] in one scan: the language's own tries a sticky match at every
  // position, which is quadratic on a linear-time engine.
  function split(string, limit) {
    const info = infoOf(this);
    if (info === null) throw new OriginalTypeError('RegExp.prototype[Symbol.split] called on an object that is not a RegExp');
    const text = toText(string);
    const most = limit === undefined ? 4294967295 : limit >>> 0;
    const parts = [];
    if (most === 0) return parts;
    const matcher = info.program.matcher(text);
    if (text.length === 0) {
      if (!matcher.find(0)) setOwn(parts, 0, text);
      return parts;
    }
    let kept = 0;
    let last = 0;
    let at = 0;
    while (at < text.length && matcher.find(at)) {
      const start = matcher.start();
      if (start >= text.length) break;
      const end = matcher.end();
      if (end === last) {
        at = start + 1;
        continue;
      }
      setOwn(parts, kept, apply(sliceText, text, [last, start]));
      kept += 1;
      if (kept === most) return parts;
      const count = info.program.groupCount();
      for (let group = 1; group <= count; group += 1) {
        const value = matcher.group(group);
        setOwn(parts, kept, value === null ? undefined : value);
        kept += 1;
        if (kept === most) return parts;
      }
      last = end;
      at = max(end, start + 1);
    }
    setOwn(parts, kept, apply(sliceText, text, [last]));
    return parts;
  }

  const lock = (object, key, value) =>
    defineProperty(object, key, { __proto__: null, value, writable: false, enumerable: false, configurable: false });
  lock(LinearRegExp, 'prototype', proto);
  defineProperty(LinearRegExp, Symbol.species, { __proto__: null, get() { return this; }, configurable: false });
  if (typeof NativeRegExp.escape === 'function') lock(LinearRegExp, 'escape', NativeRegExp.escape);
  lock(proto, 'constructor', LinearRegExp);
  lock(proto, 'exec', exec);
  lock(proto, Symbol.split, split);
  lock(proto, 'compile', function compile() {
    throw new OriginalTypeError("RegExp.prototype.compile is not available: a program's regular expressions run on a linear-time engine; make a new RegExp");
  });
  defineProperty(proto, 'source', {
    __proto__: null,
    get() {
      const info = apply(weakGet, patterns, [this]);
      return info !== undefined ? info.source : apply(nativeSource, this, []);
    },
    enumerable: false,
    configurable: false,
  });
  lock(globalThis, 'RegExp', LinearRegExp);
  // URLPattern compiles its regexp groups and wildcards for the backtracking engine, out of reach of
  // everything above: programs do without it, wherever on the global scope's chain it is defined.
  const removeProperty = Reflect.deleteProperty;
  for (let scope = globalThis; scope !== null; scope = Object.getPrototypeOf(scope)) {
    if (getOwnPropertyDescriptor(scope, 'URLPattern') !== undefined && !removeProperty(scope, 'URLPattern')) {
      lock(scope, 'URLPattern', undefined);
    }
  }
  // What instrumented regex literals call (instrument.ts): a literal is a new RegExp each time it is evaluated.
  lock(guard, 'regexp', (source, flags) => new LinearRegExp(source, flags));
}
`;

/**
 * The text for main.js: RE2JS behind a loader (evaluated on the first regex a program compiles,
 * so a program without one does not pay for it) and `installLinearRegExp`, then its call with the
 * guard.
 */
export const LINEAR_REGEXP_SOURCE = [
  'function loadLinearRegexEngine(__tick) {',
  RE2JS_SCRIPT,
  'return linearRegexEngine;',
  '}',
  INSTALL_SOURCE,
  'installLinearRegExp(guard);',
].join('\n');
