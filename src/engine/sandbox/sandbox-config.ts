/**
 * What a sandboxed run is given and what it hands back (CODE-1): the limits the isolate's main module
 * enforces, with their defaults, the outcome of a run as plain data, and the RPC shapes the host and
 * the isolate speak. The host side (loading the isolate, the bridge to tools and files) builds on
 * these types; the isolate side is the generated `main.js` of sandbox-main.ts.
 */

import type { SandboxFailureKind, SandboxHost, SandboxLog, SandboxOutcome } from '../ports/index.js';

export type { SandboxFailureKind, SandboxHost, SandboxOutcome };
export type LogEntry = SandboxLog;
export type LogLevel = SandboxLog['level'];

/** The isolate's entrypoint as the host sees it. */
export interface SandboxEntrypoint {
  /** Runs the program once; resolves with its outcome, never rejects for anything the program does. */
  run(input: unknown, host: SandboxHost): Promise<SandboxOutcome>;
  /** Ends the run: the pending `run()` resolves at once with kind `stopped`, the program's timers are cleared. */
  stop(): Promise<void>;
}

/** Loop iterations plus function calls a program may make: ample for real work, a stop for a runaway loop. */
export const DEFAULT_MAX_TICKS = 10_000_000;

/**
 * The longest a program may compute without pausing (awaiting a tool, a file, a timer or a fetch).
 * Locally workerd runs every isolate on one thread and cannot preempt one, so while a program
 * computes, no thread of the process is answered, not even a stop: this bounds that wait.
 */
export const DEFAULT_MAX_BUSY_MS = 5_000;

/**
 * The memory ledger's budget. An estimate of what the program's bulk allocations (arrays, strings,
 * buffers, collections, JSON) take, counted as they are made and never credited back: defence in
 * depth, since production isolates have the platform's 128 MB cap and local workerd has none.
 */
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/** Console entries kept per run; later ones are counted in `logsDropped`. */
export const MAX_LOG_ENTRIES = 200;

/** Bytes (UTF-8) of console text kept per run. */
export const MAX_LOG_BYTES = 32 * 1024;

/** Characters kept of one console entry or error message. */
export const MAX_LOG_ENTRY_CHARS = 2_000;

/** Bytes (UTF-8) of the returned value's JSON. */
export const MAX_RESULT_BYTES = 1024 * 1024;

export interface SandboxConfig {
  /** The guard's global name, as prepareProgram returned it. */
  guard: string;
  /** The emitted names of the program's modules (the keys of prepareProgram's `modules`): an error is located in these. */
  modules: readonly string[];
  /** The tools the program may call as `tools.<name>(args)`. */
  toolNames: readonly string[];
  /** Whether the program is given `files` (read, write, list through the host). */
  files: boolean;
  /** Wall-clock time from the start of `run()` until the run is stopped. */
  timeoutMs: number;
  maxTicks?: number;
  /** The longest the program may compute without pausing; default DEFAULT_MAX_BUSY_MS. */
  maxBusyMs?: number;
  memoryBytes?: number;
  maxLogEntries?: number;
  maxLogBytes?: number;
  maxResultBytes?: number;
}

/** The config as main.js embeds it: every limit set, every message written out by the runtime. */
export interface IsolateConfig {
  guard: string;
  modules: string[];
  toolNames: string[];
  files: boolean;
  timeoutMs: number;
  maxTicks: number;
  maxBusyMs: number;
  memoryBytes: number;
  maxLogEntries: number;
  maxLogBytes: number;
  maxLogEntryChars: number;
  maxResultBytes: number;
  messages: {
    ticks: string;
    time: string;
    busy: string;
    memory: string;
    stopped: string;
    over: string;
    result: string;
  };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`sandbox ${name} must be a positive integer`);
  return value;
}

/** `64 MiB`, `32 KiB`, `500 bytes`. */
function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['MiB', 1024 * 1024],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** The config with defaults filled in and checked; throws on a value no run could use. */
export function isolateConfig(config: SandboxConfig): IsolateConfig {
  if (!IDENTIFIER.test(config.guard)) throw new TypeError('sandbox guard must be an identifier');
  const maxTicks = positiveInteger('maxTicks', config.maxTicks ?? DEFAULT_MAX_TICKS);
  const timeoutMs = positiveInteger('timeoutMs', config.timeoutMs);
  const maxBusyMs = positiveInteger('maxBusyMs', config.maxBusyMs ?? DEFAULT_MAX_BUSY_MS);
  const memoryBytes = positiveInteger('memoryBytes', config.memoryBytes ?? DEFAULT_MEMORY_BYTES);
  const maxResultBytes = positiveInteger('maxResultBytes', config.maxResultBytes ?? MAX_RESULT_BYTES);
  return {
    guard: config.guard,
    modules: config.modules.map(String),
    toolNames: [...new Set(config.toolNames.map(String))],
    files: config.files === true,
    timeoutMs,
    maxTicks,
    maxBusyMs,
    memoryBytes,
    maxLogEntries: positiveInteger('maxLogEntries', config.maxLogEntries ?? MAX_LOG_ENTRIES),
    maxLogBytes: positiveInteger('maxLogBytes', config.maxLogBytes ?? MAX_LOG_BYTES),
    maxLogEntryChars: MAX_LOG_ENTRY_CHARS,
    maxResultBytes,
    messages: {
      ticks: `the program ran more than ${maxTicks.toLocaleString('en-US')} loop iterations and function calls`,
      time: `the program ran longer than its time limit of ${timeoutMs.toLocaleString('en-US')} ms`,
      busy: `the program computed for more than ${maxBusyMs.toLocaleString('en-US')} ms without pausing (awaiting a tool, a file or a timer)`,
      memory: `the program allocated more than ${sizeText(memoryBytes)} of memory (an estimate of its arrays, strings, buffers and collections)`,
      stopped: 'the run was stopped by its caller',
      over: 'the run is over',
      result: `the returned value is more than ${sizeText(maxResultBytes)} of JSON`,
    },
  };
}
