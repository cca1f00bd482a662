/**
 * The console of a sandboxed program, as JavaScript text for the isolate's main module (CODE-1).
 * Every method of `console` is replaced, and none calls workerd's own: that one prints to the
 * process's output and, with an inspector attached (`wrangler dev`), sends each call with its
 * arguments and its stack to DevTools, which a program logging in a loop would flood. The five levels
 * and what prints (`trace`, `dir`, `dirxml`, `table`, a failed `assert`) are recorded in the run's
 * logs, within their caps; counters, timers and groups do nothing.
 *
 * Like the ledger (isolate-ledger.ts) it is text the main module embeds; it relies on the primordials
 * and the run state main.js defines (`apply`, `defineProperty`, `stringify`, `toText`, `finished`,
 * `logs`, `cut`, `utf8Length`, `setItem`, ...), and defines `describe(value)` (a value as a log
 * line or an error message shows it) and `record(level, args, prefix)`.
 */
import { SANDBOX_MAIN_MODULE } from './module-names.js';

export const CONSOLE_SOURCE = String.raw`
function describe(value) {
  if (typeof value === 'string') return value;
  try {
    if (value instanceof OriginalError) {
      const stack = value.stack;
      return typeof stack === 'string' ? withoutMainFrames(stack) : toText(value.message);
    }
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      return toText(value);
    }
    const json = stringify(value);
    return json === undefined ? toText(value) : json;
  } catch {
    try {
      return toText(value);
    } catch {
      return '[a value that cannot be printed]';
    }
  }
}

function withoutMainFrames(stack) {
  let text = '';
  let start = 0;
  while (start < stack.length) {
    let end = apply(stringIndexOf, stack, ['\n', start]);
    if (end === -1) end = stack.length;
    const line = apply(stringSlice, stack, [start, end]);
    if (apply(stringIndexOf, line, ['${SANDBOX_MAIN_MODULE}:']) === -1) text += (text === '' ? '' : '\n') + line;
    start = end + 1;
  }
  return text;
}

function record(level, args, prefix) {
  if (finished) return;
  if (logs.length >= CONFIG.maxLogEntries || logBytes >= CONFIG.maxLogBytes) {
    logsDropped += 1;
    return;
  }
  let text = prefix === undefined ? '' : prefix;
  for (let i = 0; i < args.length; i += 1) text += (i === 0 && prefix === undefined ? '' : ' ') + describe(args[i]);
  text = cut(text);
  const bytes = utf8Length(text);
  if (logBytes + bytes > CONFIG.maxLogBytes) {
    // The log is full from here on: later entries are dropped even if short, so what is kept has no gap.
    logBytes = CONFIG.maxLogBytes;
    logsDropped += 1;
    return;
  }
  logBytes += bytes;
  setItem(logs, logs.length, { level, text });
}

// Every method of the console, replaced before any program code runs.
const CONSOLE_LEVELS = { __proto__: null, log: 'log', info: 'info', warn: 'warn', error: 'error', debug: 'debug', trace: 'debug', dir: 'log', dirxml: 'log', table: 'log' };
const ignored = () => {};
for (const key of Object.getOwnPropertyNames(console)) {
  if (typeof console[key] !== 'function') continue;
  const level = CONSOLE_LEVELS[key];
  let value = ignored;
  if (level !== undefined) value = (...args) => record(level, args);
  else if (key === 'assert') value = (condition, ...args) => (condition ? undefined : record('error', args, 'Assertion failed'));
  defineProperty(console, key, { value, writable: true, configurable: true, enumerable: true });
}
`;
