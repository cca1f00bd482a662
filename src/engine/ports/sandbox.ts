/**
 * What the engine needs to run a program in an isolate of its own (CODE-1). The thread layer gives
 * it from a Worker Loader binding; the engine prepares the modules, gives the host side and reads
 * the outcome, which comes back as plain data.
 */
import type { RunCodeLog } from '../../spec/index.js';

/** An isolate's code: its modules (`main.js` first among them) and what it may reach. */
export interface SandboxCode {
  /** Unique per run: an isolate serves one run, so nothing a program leaves behind meets another. */
  id: string;
  modules: Record<string, string>;
  /** The run whose `state.fetch` a granted network goes through; null: no network at all. */
  networkRun: string | null;
  /** The CPU time the platform allows the isolate (enforced where the platform enforces it). */
  cpuMs: number;
}

/** What the isolate calls back on the host, over RPC: each call passes through the calling tool's state. */
export interface SandboxHost {
  callTool(name: string, args: unknown): Promise<unknown>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  listFiles(path: string): Promise<unknown>;
}

/** A line the program printed with `console.*`. */
export type SandboxLog = RunCodeLog;

/**
 * Why a run failed: the program threw (`thrown`), went over a limit (`limit`, reported even if the
 * program caught the error and returned), was stopped by its caller (`stopped`), or returned a value
 * that cannot be handed back as JSON (`result`).
 */
export type SandboxFailureKind = 'thrown' | 'limit' | 'stopped' | 'result';

/** How a run ended, as the isolate reports it: plain data. */
export type SandboxOutcome =
  | {
      ok: true;
      /** The JSON text of the returned value; null when the program returned nothing. */
      result: string | null;
      logs: SandboxLog[];
      logsDropped: number;
    }
  | {
      ok: false;
      kind: SandboxFailureKind;
      error: string;
      /** Where it was thrown: the emitted module name (`program.js`, `util.js`), 1-based line and column. */
      file?: string;
      line?: number;
      column?: number;
      logs: SandboxLog[];
      logsDropped: number;
    };

export interface SandboxIsolate {
  run(input: unknown, host: SandboxHost): Promise<SandboxOutcome>;
  /** Ends the run: its `run` resolves as stopped, with the logs so far. */
  stop(): Promise<void>;
}

export interface SandboxLoader {
  load(code: SandboxCode): SandboxIsolate;
}
