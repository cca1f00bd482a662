/**
 * `state.runCode` (CODE-1): a program runs in an isolate of its own, and whatever it does comes back
 * as data. The host side is the calling tool's state: the program's tool calls are `invokeTool`
 * calls (checked and stored like the model's), its files are the state's (under the thread's rules,
 * and only the paths granted), and a granted network is the state's `fetch`.
 *
 * Three limits stop a program: the isolate's own guard (loop iterations and calls, an estimate of
 * what it allocates, the wall clock; sandbox-main.ts), the platform's CPU limit where it enforces
 * one, and here, the caller's signal and a deadline a little past the program's own, for a program
 * that waits on something that never answers. Either way the isolate is told to stop.
 */
import type { RunCodeOptions, RunCodeResult, ThreadState } from '../../spec/index.js';
import { CallPaused } from '../../spec/index.js';
import { MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';
import { normalizeThreadPath } from '../files/index.js';
import type { SandboxHost, SandboxLoader, SandboxOutcome } from '../ports/index.js';
import { loadProgramCompilers } from './compilers-loader.js';
import { type PreparedProgram, prepareProgram } from './program-source.js';
import { DEFAULT_MEMORY_BYTES } from './sandbox-config.js';
import { sandboxMainModule } from './sandbox-main.js';

/** A program's wall-clock limit when neither the caller nor the calling tool sets one. */
export const DEFAULT_RUN_TIMEOUT_MS = 30_000;
/** The most a caller may allow for the estimated allocations: the platform's own isolate limit. */
export const MAX_MEMORY_MB = 128;
/** Past the program's own deadline, how long the host waits for the isolate to notice it. */
const STOP_GRACE_MS = 1_000;

export interface ProgramRun {
  loader: SandboxLoader;
  /** The calling tool's state (fenced, with its own invokeTool). */
  state: ThreadState;
  /** A network for this run through `state.fetch`; returns the run id the isolate's outbound names. */
  openNetwork?(fetch: (request: Request) => Promise<Response>): { run: string; close(): void };
}

function failed(error: string, extra: Partial<Extract<RunCodeResult, { status: 'error' }>> = {}): RunCodeResult {
  return { status: 'error', error, logs: [], logsDropped: 0, ...extra };
}

/** The options as the run uses them, or the reason they cannot be used. */
function checkedOptions(state: ThreadState, options: RunCodeOptions) {
  const remaining = state.execution?.deadline ? state.execution.deadline - Date.now() : DEFAULT_RUN_TIMEOUT_MS;
  const timeout = options.timeout ?? remaining;
  if (!Number.isFinite(timeout) || timeout <= 0) return `timeout must be a positive number of ms, got ${timeout}`;
  const memoryMB = options.memoryMB ?? DEFAULT_MEMORY_BYTES / 2 ** 20;
  if (!Number.isFinite(memoryMB) || memoryMB <= 0 || memoryMB > MAX_MEMORY_MB) {
    return `memoryMB must be between 0 and ${MAX_MEMORY_MB}, got ${memoryMB}`;
  }
  const tools = options.tools ?? [];
  if (!Array.isArray(tools) || tools.some((name) => typeof name !== 'string')) return 'tools must be a list of names';
  let read: string[];
  let write: string[];
  try {
    read = (options.files?.read ?? []).map(normalizeThreadPath);
    write = (options.files?.write ?? []).map(normalizeThreadPath);
  } catch (error) {
    return `files: ${(error as Error).message}`;
  }
  return {
    timeoutMs: Math.min(timeout, MAX_TOOL_TIMEOUT_MS),
    memoryBytes: Math.floor(memoryMB * 2 ** 20),
    tools,
    read: [...read, ...write],
    write,
  };
}

/** Whether `path` is one of `granted` or below one of them. */
function within(path: string, granted: readonly string[]): boolean {
  return granted.some((root) => path === root || path.startsWith(root === '/' ? '/' : `${root}/`));
}

function grantedPath(path: string, granted: readonly string[], mode: 'read' | 'write'): string {
  const normalized = normalizeThreadPath(path);
  if (!within(normalized, granted)) {
    throw new Error(`the program may not ${mode} ${normalized}: it was granted ${granted.join(', ') || 'no paths'}`);
  }
  return normalized;
}

/** The outcome as the caller reads it: the result parsed, an error's place in the user's own file. */
function resultOf(outcome: SandboxOutcome, prepared: PreparedProgram): RunCodeResult {
  const { logs, logsDropped } = outcome;
  if (outcome.ok) {
    return {
      status: 'success',
      result: outcome.result === null ? null : JSON.parse(outcome.result),
      logs,
      logsDropped,
    };
  }
  const file = outcome.file ? (prepared.fileNames[outcome.file] ?? outcome.file) : undefined;
  return {
    status: 'error',
    error: outcome.error,
    ...(file ? { file } : {}),
    ...(outcome.line ? { line: outcome.line } : {}),
    logs,
    logsDropped,
  };
}

export async function runProgram(run: ProgramRun, source: string, options: RunCodeOptions): Promise<RunCodeResult> {
  const { state } = run;
  const signal = state.execution?.abortSignal;
  const checked = checkedOptions(state, options);
  if (typeof checked === 'string') return failed(`runCode: ${checked}`);
  // The compilers (sucrase, acorn) load with the first program, not with every Worker that starts.
  await loadProgramCompilers();
  const prepared = prepareProgram({ source, modules: options.modules });
  if (!prepared.ok) {
    return failed(prepared.error, { file: prepared.file, line: prepared.line });
  }
  const main = sandboxMainModule({
    guard: prepared.guard,
    modules: Object.keys(prepared.modules),
    toolNames: checked.tools,
    files: checked.read.length > 0,
    timeoutMs: checked.timeoutMs,
    memoryBytes: checked.memoryBytes,
  });
  let network: { run: string; close(): void } | null = null;
  if (options.network) {
    if (!run.openNetwork) return failed('runCode: this Worker gives programs no network');
    network = run.openNetwork((request) => state.fetch(request));
  }
  const pause: { error: CallPaused | null } = { error: null };
  const host: SandboxHost = {
    async callTool(name, args) {
      if (!checked.tools.includes(name)) {
        throw new Error(
          `tool "${name}" was not granted to this program (granted: ${checked.tools.join(', ') || 'none'})`,
        );
      }
      try {
        // A program's tools.<name>() resolves the result's text and throws the tool's error.
        const outcome = await state.invokeTool(name, (args ?? {}) as Record<string, unknown>);
        if (outcome.status === 'error') throw new Error(outcome.error ?? `tool "${name}" failed`);
        return outcome.result;
      } catch (error) {
        if (error instanceof CallPaused) {
          pause.error = error;
          void isolate.stop();
        }
        throw error;
      }
    },
    async readFile(path) {
      const bytes = await state.readFile(grantedPath(path, checked.read, 'read'));
      if (!bytes) throw new Error(`no such file: ${normalizeThreadPath(path)}`);
      return new TextDecoder().decode(bytes);
    },
    async writeFile(path, text) {
      await state.writeFile(grantedPath(path, checked.write, 'write'), String(text));
    },
    async listFiles(path) {
      return (await state.readdirFile(grantedPath(path, checked.read, 'read'))).entries;
    },
  };
  const isolate = run.loader.load({
    id: crypto.randomUUID(),
    modules: { 'main.js': main, ...prepared.modules },
    networkRun: network?.run ?? null,
    cpuMs: checked.timeoutMs,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped: string | null = null;
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = reason;
    void isolate.stop();
  };
  const onAbort = () => stop(String((signal?.reason as Error | undefined)?.message ?? 'the call was stopped'));
  try {
    if (signal?.aborted) return failed(String((signal.reason as Error | undefined)?.message ?? 'stopped'));
    signal?.addEventListener('abort', onAbort);
    const deadline = new Promise<SandboxOutcome>((resolve) => {
      timer = setTimeout(() => {
        stop(`the program did not finish within ${checked.timeoutMs} ms`);
        resolve({ ok: false, kind: 'stopped', error: stopped ?? '', logs: [], logsDropped: 0 });
      }, checked.timeoutMs + STOP_GRACE_MS);
    });
    const outcome = await Promise.race([isolate.run(options.input ?? null, host), deadline]);
    if (pause.error) throw pause.error;
    if (stopped && !outcome.ok) return resultOf({ ...outcome, error: stopped }, prepared);
    return resultOf(outcome, prepared);
  } catch (error) {
    if (error instanceof CallPaused) throw error;
    // The isolate failed as a whole: the platform ended it (memory, CPU) or it could not start.
    return failed(`the program's isolate failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    network?.close();
  }
}
