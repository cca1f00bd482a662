/**
 * What the engine needs to run a program in an isolate of its own (CODE-1). The thread layer gives
 * it from a Worker Loader binding; the engine prepares the modules, gives the host side and reads
 * the outcome, which comes back as plain data.
 */
import type { RunCodeLog } from '../../spec/index.js';

/** An isolate's code: its modules (`main.js` first among them) and what it may reach. */
export interface SandboxCode {
  /** Identical code under the same id may reuse a warm isolate; another id gets a fresh one. */
  id: string;
  modules: Record<string, string>;
  /** The run whose `state.fetch` a granted network goes through; null: no network at all. */
  networkRun: string | null;
  /** The CPU time the platform allows the isolate (enforced where the platform enforces it). */
  cpuMs: number;
}

/** What the program reaches on the host, each call passing through the calling tool's state. */
export interface SandboxHost {
  callTool(name: string, args: unknown): Promise<string>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  listFiles(path: string): Promise<{ name: string; path: string; kind: 'file' | 'directory'; size?: number }[]>;
}

/** How a run ended, as the isolate reports it. */
export type SandboxOutcome =
  | { ok: true; result: string | null; logs: RunCodeLog[]; logsDropped: number }
  | {
      ok: false;
      kind: 'thrown' | 'limit' | 'stopped' | 'result';
      error: string;
      file?: string;
      line?: number;
      column?: number;
      logs: RunCodeLog[];
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
