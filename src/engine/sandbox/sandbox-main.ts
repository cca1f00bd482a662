/**
 * The main module of a sandboxed run's isolate (CODE-1), as source text: `main.js`, loaded next to the
 * prepared program's modules. Its entrypoint's `run(input, host)` imports the program and calls it
 * with `input`, `tools` and `files`, and always resolves with an outcome that is plain data; `stop()`
 * ends the run at once. Before any program code runs it defines the guard the instrumented code
 * calls (ticks, wall clock, stop), installs the memory ledger, captures the console and wraps the
 * timers, keeping in closures the originals a program could otherwise replace.
 *
 * It is text built from a template rather than a function's `.toString()`, because a bundler rewrites
 * functions. The config goes in as JSON, the only value interpolated: no user text becomes code. The
 * memory ledger (isolate-ledger.ts) and the program's bridge to the host (isolate-host-bridge.ts) are
 * text of the same module, kept in files of their own.
 */
import { HOST_BRIDGE_SOURCE } from './isolate-host-bridge.js';
import { MEMORY_LEDGER_SOURCE } from './isolate-ledger.js';
import { LINEAR_REGEXP_SOURCE } from './isolate-regexp.js';
import { SANDBOX_MAIN_MODULE } from './module-names.js';
import { isolateConfig, type SandboxConfig } from './sandbox-config.js';

/** The isolate's code after the config: the run, its limits and its entrypoint. */
const RUN_SOURCE = String.raw`
// What the sandbox itself calls, captured before any program code runs: a program may replace any
// global or prototype method, but not these.
const apply = Reflect.apply;
const construct = Reflect.construct;
const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const freeze = Object.freeze;
const createObject = Object.create;
const isArray = Array.isArray;
const clock = Date.now;
const stringify = JSON.stringify;
const parseJson = JSON.parse;
const toText = String;
const OriginalError = Error;
const OriginalProxy = Proxy;
const timerIds = new Map();
const { set: mapSet, delete: mapDelete, forEach: mapForEach } = Map.prototype;
const { slice: stringSlice, indexOf: stringIndexOf, charCodeAt: stringCharCodeAt } = String.prototype;
const regexpExec = RegExp.prototype.exec;
const disposeKey = Symbol.dispose;
const originalTimers = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
};
// A stack frame: "    at fn (file.js:3:7)" or "    at file.js:3:7".
const FRAME = /^\s*at (?:.*?\()?(?:file:\/\/)?\/?([^\s()]+):(\d+):(\d+)\)?\s*$/;

// Objects the sandbox makes for itself once program code may have run have no prototype: a property
// planted on Object.prototype (a "get" that spoils a property descriptor) cannot reach them.
class SandboxHalt extends OriginalError {
  constructor(name, message) {
    super(message);
    defineProperty(this, 'name', { __proto__: null, value: name, writable: true, configurable: true, enumerable: false });
  }
}

// The run. One run per isolate: the ledger and the ticks are the isolate's.
let started = false;
let finished = false;
let settle = null;
let ticks = 0;
let deadline = Infinity;
let allocated = 0;
// The first limit or stop: { kind, error }. Once set, the guard throws its error on every call.
let halted = null;
const logs = [];
let logBytes = 0;
let logsDropped = 0;

function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = apply(stringCharCodeAt, text, [i]);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code < 0xdc00 ? 2 : 3;
  }
  return bytes;
}

function cut(text) {
  const limit = CONFIG.maxLogEntryChars;
  return text.length > limit ? apply(stringSlice, text, [0, limit - 1]) + '\u2026' : text;
}

// The program's modules, by emitted name: a stack frame in any other file (main.js, the runtime's
// own modules) is not where the program failed.
const PROGRAM_FILES = createObject(null);
for (const name of CONFIG.modules) PROGRAM_FILES[name] = true;

// The first frame of a stack in one of the program's modules.
function locationOf(error) {
  let stack;
  try {
    stack = error !== null && typeof error === 'object' ? error.stack : undefined;
  } catch {
    return null;
  }
  if (typeof stack !== 'string') return null;
  let start = 0;
  while (start < stack.length) {
    let end = apply(stringIndexOf, stack, ['\n', start]);
    if (end === -1) end = stack.length;
    const match = apply(regexpExec, FRAME, [apply(stringSlice, stack, [start, end])]);
    if (match !== null && PROGRAM_FILES[match[1]] === true) {
      return { __proto__: null, file: match[1], line: +match[2], column: +match[3] };
    }
    start = end + 1;
  }
  return null;
}

// Sets an array's item by definition, so no setter a program put on Array.prototype runs.
function setItem(list, index, value) {
  defineProperty(list, index, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

function copyLogs() {
  const copy = [];
  for (let i = 0; i < logs.length; i += 1) setItem(copy, i, logs[i]);
  return copy;
}

// An outcome for the host. RPC sends only ordinary objects, so it has a prototype; its own hidden
// "then" keeps a "then" planted on Object.prototype from making it a thenable when it settles run().
function plain(outcome) {
  defineProperty(outcome, 'then', { __proto__: null, value: undefined, enumerable: false });
  // Likewise its own empty Symbol.dispose: RPC treats a plain result whose Symbol.dispose is a
  // function (one planted on Object.prototype) as one the caller must dispose (see releaseHost()).
  defineProperty(outcome, disposeKey, { __proto__: null, value: undefined, configurable: true, enumerable: false });
  return outcome;
}

function failure(kind, message, error) {
  const at = locationOf(error);
  const text = cut(message);
  return at === null
    ? plain({ ok: false, kind, error: text, logs: copyLogs(), logsDropped })
    : plain({
        ok: false,
        kind,
        error: text,
        file: at.file,
        line: at.line,
        column: at.column,
        logs: copyLogs(),
        logsDropped,
      });
}

function haltedOutcome() {
  return failure(halted.kind, halted.error.message, halted.error);
}

// Settles run() once with what build() returns; from then on the guard throws and the program's
// timers are gone. Should building fail (a program can plant traps on what the sandbox reads), the
// outcome is the bare facts.
function end(build) {
  if (finished || settle === null) return;
  let outcome;
  try {
    outcome = build();
  } catch {
    outcome =
      halted !== null
        ? plain({ ok: false, kind: halted.kind, error: halted.error.message, logs: [], logsDropped })
        : plain({ ok: false, kind: 'thrown', error: 'the program failed in a way that cannot be reported', logs: [], logsDropped });
  }
  // Building may run program code (a toJSON, a getter) that went over a limit and ended the run itself.
  if (finished) return;
  finished = true;
  if (halted === null) {
    halted = { __proto__: null, kind: 'stopped', error: new SandboxHalt('SandboxStoppedError', CONFIG.messages.over) };
  }
  apply(mapForEach, timerIds, [(clear, id) => apply(clear, globalThis, [id])]);
  settle(outcome);
  releaseHost();
}

function halt(kind, name, message) {
  if (halted === null) halted = { __proto__: null, kind, error: new SandboxHalt(name, message) };
  end(haltedOutcome);
}

function overLimit(message) {
  halt('limit', 'SandboxLimitError', message);
  throw halted.error;
}

// The guard the instrumented code calls at the start of every loop body and function body, and with
// the value of every spread ("...list"), which it charges to the ledger and returns.
function guard(spread) {
  if (halted !== null) throw halted.error;
  ticks += 1;
  if (ticks > CONFIG.maxTicks) overLimit(CONFIG.messages.ticks);
  // The clock is read every 1024 ticks: often enough to stop a loop soon after its deadline.
  if ((ticks & 1023) === 0 && clock() > deadline) overLimit(CONFIG.messages.time);
  if (spread !== undefined && (typeof spread === 'string' || isArray(spread))) charge(spread.length * 8);
  return spread;
}
defineProperty(globalThis, CONFIG.guard, { value: guard, writable: false, configurable: false, enumerable: false });

// Charges the memory ledger before an allocation; bulk allocations are also a moment to read the clock.
function charge(bytes) {
  if (!(bytes > 0)) return;
  if (halted !== null && started) throw halted.error;
  allocated += bytes;
  if (allocated > CONFIG.memoryBytes) overLimit(CONFIG.messages.memory);
  if (clock() > deadline) overLimit(CONFIG.messages.time);
}

${MEMORY_LEDGER_SOURCE}
installMemoryLedger(charge);
${LINEAR_REGEXP_SOURCE}

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

function record(level, args) {
  if (finished) return;
  if (logs.length >= CONFIG.maxLogEntries || logBytes >= CONFIG.maxLogBytes) {
    logsDropped += 1;
    return;
  }
  let text = '';
  for (let i = 0; i < args.length; i += 1) text += (i === 0 ? '' : ' ') + describe(args[i]);
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
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  defineProperty(console, level, {
    value: (...args) => record(level, args),
    writable: true,
    configurable: true,
    enumerable: true,
  });
}

// Timers, wrapped so every one the program sets can be cleared when the run ends.
function wrapTimer(setName, clearName) {
  const set = originalTimers[setName];
  const clear = originalTimers[clearName];
  globalThis[setName] = function (callback, delay, ...args) {
    if (halted !== null) throw halted.error;
    if (typeof callback !== 'function') throw new TypeError(setName + ' needs a function');
    const once = setName === 'setTimeout';
    const id = apply(set, globalThis, [
      () => {
        if (once) apply(mapDelete, timerIds, [id]);
        apply(callback, globalThis, args);
      },
      delay,
    ]);
    apply(mapSet, timerIds, [id, clear]);
    return id;
  };
  globalThis[clearName] = function (id) {
    apply(mapDelete, timerIds, [id]);
    return apply(clear, globalThis, [id]);
  };
}
wrapTimer('setTimeout', 'clearTimeout');
wrapTimer('setInterval', 'clearInterval');

${HOST_BRIDGE_SOURCE}

export default class SandboxEntrypoint extends WorkerEntrypoint {
  async run(input, host) {
    if (started) {
      return plain({ ok: false, kind: 'thrown', error: 'this sandbox has already run a program', logs: [], logsDropped: 0 });
    }
    started = true;
    holdArguments(input, host);
    const outcome = new Promise((resolve) => {
      settle = resolve;
    });
    if (halted !== null) {
      end(haltedOutcome);
      return outcome;
    }
    deadline = clock() + CONFIG.timeoutMs;
    const timer = apply(originalTimers.setTimeout, globalThis, [
      () => halt('limit', 'SandboxLimitError', CONFIG.messages.time),
      CONFIG.timeoutMs,
    ]);
    apply(mapSet, timerIds, [timer, originalTimers.clearTimeout]);
    runProgram(input, toolsFor(host), CONFIG.files ? filesFor(host) : undefined);
    return outcome;
  }

  async stop() {
    halt('stopped', 'SandboxStoppedError', CONFIG.messages.stopped);
  }
}
`;

/** The source of `main.js` for a run with this config. Throws on a config no run could use. */
export function sandboxMainModule(config: SandboxConfig): string {
  const embedded = JSON.stringify(isolateConfig(config));
  return [
    `// The main module of a sandboxed run (CODE-1), generated by the runtime.`,
    `import { WorkerEntrypoint } from 'cloudflare:workers';`,
    `const CONFIG = ${embedded};`,
    RUN_SOURCE,
  ].join('\n');
}
