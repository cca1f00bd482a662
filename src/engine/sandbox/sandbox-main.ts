/**
 * The main module of a sandboxed run's isolate (CODE-1), as source text: `main.js`, loaded next to the
 * prepared program's modules. Its entrypoint's `run(input, host)` imports the program and calls it
 * with `input`, `tools` and `files`, and always resolves with an outcome that is plain data; `stop()`
 * ends the run at once. Before any program code runs it defines the guard the instrumented code
 * calls (ticks, wall clock, time without a pause, stop), installs the work meter and the memory
 * ledger, captures the console and wraps the timers, keeping in closures the originals a program
 * could otherwise replace.
 *
 * It is text built from a template rather than a function's `.toString()`, because a bundler rewrites
 * functions. The config goes in as JSON, the only value interpolated: no user text becomes code. The
 * work meter (isolate-work-meter.ts), the memory ledger (isolate-ledger.ts) and the program's bridge
 * to the host (isolate-host-bridge.ts) are text of the same module, kept in files of their own.
 */
import { CONSOLE_SOURCE } from './isolate-console.js';
import { HOST_BRIDGE_SOURCE } from './isolate-host-bridge.js';
import { MEMORY_LEDGER_SOURCE } from './isolate-ledger.js';
import { QUEUED_JOBS_SOURCE } from './isolate-queued-jobs.js';
import { LINEAR_REGEXP_SOURCE } from './isolate-regexp.js';
import { WORK_METER_SOURCE } from './isolate-work-meter.js';
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
const enqueue = queueMicrotask;
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

// Halt errors made before any program code runs, one per message: a halt deep in a program's
// recursion, with no stack left to construct an error, throws one of these (which cannot say where
// in the program it happened).
const SPARE_HALTS = createObject(null);
for (const key of ['ticks', 'time', 'busy', 'memory']) {
  SPARE_HALTS[CONFIG.messages[key]] = new SandboxHalt('SandboxLimitError', CONFIG.messages[key]);
}
for (const key of ['stopped', 'over']) {
  SPARE_HALTS[CONFIG.messages[key]] = new SandboxHalt('SandboxStoppedError', CONFIG.messages[key]);
}

function haltError(name, message) {
  try {
    return new SandboxHalt(name, message);
  } catch {
    return SPARE_HALTS[message];
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
// When the program last paused, letting the event loop have a turn (set by the heartbeat, a timer of
// the program, a host call's answer; Infinity before the run), and the work built-ins did since the
// clock was last read: see checkClock() and work().
let pausedAt = Infinity;
let workSinceClock = 0;
// Whether the timers are cleared and the host released, after the run: see cleanUp().
let cleaned = false;
// The sandbox's own timers (the deadline, the heartbeat): [id, clear] pairs no program can clear.
const ownTimers = [];
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
// outcome is the bare facts. Near the stack's limit (a program recursing as deep as it can and
// catching every overflow) any step here can fail for want of stack: nothing counts as done until it
// is, and finish() completes it from a microtask or the next guard call, further up the stack.
function end(build) {
  if (finished || settle === null) return;
  let outcome;
  try {
    outcome = build();
  } catch {
    outcome = bareOutcome();
  }
  // Building may run program code (a toJSON, a getter) that went over a limit and ended the run itself.
  if (finished) return;
  if (halted === null) {
    halted = { __proto__: null, kind: 'stopped', error: haltError('SandboxStoppedError', CONFIG.messages.over), placed: true };
  }
  settle(outcome);
  finished = true;
  cleanUp();
}

function bareOutcome() {
  return halted !== null
    ? plain({ ok: false, kind: halted.kind, error: halted.error.message, logs: [], logsDropped })
    : plain({ ok: false, kind: 'thrown', error: 'the program failed in a way that cannot be reported', logs: [], logsDropped });
}

// After the run: the program's timers and the sandbox's own are cleared and the host is released.
function cleanUp() {
  if (cleaned) return;
  apply(mapForEach, timerIds, [(clear, id) => apply(clear, globalThis, [id])]);
  for (let i = 0; i < ownTimers.length; i += 1) apply(ownTimers[i][1], globalThis, [ownTimers[i][0]]);
  releaseHost();
  cleaned = true;
}

function finish() {
  try {
    end(haltedOutcome);
    cleanUp();
  } catch {}
}

// What the guard and the metered built-ins do once the run is halted: complete what the halt could
// not (see end()), then throw the halt's error.
function haltedThrow() {
  if (!cleaned) finish();
  throw halted.error;
}

function halt(kind, name, message) {
  if (halted === null) halted = { __proto__: null, kind, error: SPARE_HALTS[message], placed: false };
  if (!halted.placed) {
    halted.placed = true;
    // Made here if the stack allows, so that the error's stack says where the program was.
    halted.error = haltError(name, message);
    apply(enqueue, globalThis, [finish]);
  }
  end(haltedOutcome);
}

function overLimit(message) {
  halt('limit', 'SandboxLimitError', message);
  throw halted.error;
}

// The guard the instrumented code calls at the start of every loop body and function body, and with
// the value of every spread ("...list"), which it charges to the ledger and returns.
function guard(spread) {
  if (halted !== null) haltedThrow();
  ticks += 1;
  let over = null;
  if (ticks > CONFIG.maxTicks) over = CONFIG.messages.ticks;
  else if ((ticks & 1023) === 0) {
    // The clock is read every 1024 ticks: often enough to stop a loop soon after its deadline.
    const now = clock();
    if (now > deadline) over = CONFIG.messages.time;
    else if (now - pausedAt > CONFIG.maxBusyMs) over = CONFIG.messages.busy;
  }
  if (over !== null) {
    // Halted before any further call: a program recursing as deep as it can, catching every stack
    // overflow, may have no stack left for one, and the next call of the guard throws.
    if (halted === null) halted = { __proto__: null, kind: 'limit', error: SPARE_HALTS[over], placed: false };
    overLimit(over);
  }
  if (spread !== undefined && (typeof spread === 'string' || isArray(spread))) charge(spread.length * 8);
  return spread;
}
defineProperty(globalThis, CONFIG.guard, { value: guard, writable: false, configurable: false, enumerable: false });

// What a queued job (a microtask, a promise's reaction, a timer) or a pending async call holds until
// it runs or finishes, as the memory ledger counts it.
const QUEUED_JOB_BYTES = 64;

// The guard of an async function's body (instrument.ts): a tick, and the call's frame, held until
// the call finishes.
defineProperty(guard, 'asyncCall', {
  value: function asyncCall() {
    guard();
    charge(QUEUED_JOB_BYTES);
  },
});

// The time limits, read off the clock: the deadline, and how long the program has computed since the
// event loop last had a turn. Locally workerd cannot preempt an isolate: while a program computes,
// no thread of the process is served, so a program may not hold it for longer than maxBusyMs.
function checkClock() {
  const now = clock();
  if (now > deadline) overLimit(CONFIG.messages.time);
  if (now - pausedAt > CONFIG.maxBusyMs) overLimit(CONFIG.messages.busy);
}

// Work a built-in is about to do (elements, characters, bytes: isolate-work-meter.ts), and bytes
// allocated: the clock is read once 64 Ki units add up, so a loop of built-ins that makes few ticks
// still meets its time limits.
function work(units) {
  if (halted !== null && started) haltedThrow();
  workSinceClock += units;
  if (workSinceClock >= 65536) {
    workSinceClock = 0;
    checkClock();
  }
}

${WORK_METER_SOURCE}
installWorkMeter(work);

// Charges the memory ledger before an allocation, which is work too.
function charge(bytes) {
  if (!(bytes > 0)) return;
  if (halted !== null && started) haltedThrow();
  allocated += bytes;
  if (allocated > CONFIG.memoryBytes) overLimit(CONFIG.messages.memory);
  work(bytes);
}

${MEMORY_LEDGER_SOURCE}
installMemoryLedger(charge);
${LINEAR_REGEXP_SOURCE}

${CONSOLE_SOURCE}

${QUEUED_JOBS_SOURCE}

function setOwnTimer(setName, clearName, callback, delay) {
  const id = apply(originalTimers[setName], globalThis, [callback, delay]);
  setItem(ownTimers, ownTimers.length, [id, originalTimers[clearName]]);
}

${HOST_BRIDGE_SOURCE}

export default class SandboxEntrypoint extends WorkerEntrypoint {
  // Not async: an async method would resolve its promise through Promise.prototype.then, which the
  // queued jobs above charge and a program may replace; workerd awaits a returned promise itself.
  run(input, host) {
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
    pausedAt = clock();
    deadline = pausedAt + CONFIG.timeoutMs;
    const timeout = () => halt('limit', 'SandboxLimitError', CONFIG.messages.time);
    setOwnTimer('setTimeout', 'clearTimeout', timeout, CONFIG.timeoutMs);
    // The heartbeat runs whenever the event loop has a turn: the program is pausing.
    setOwnTimer('setInterval', 'clearInterval', () => { pausedAt = clock(); }, 100);
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
