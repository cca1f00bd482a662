/**
 * What `state.runCode` takes and gives (CODE-1): a program's options, its console lines, and what it
 * came to, as data.
 */

/** Options of `state.runCode` (CODE-1). */
export interface RunCodeOptions {
  /** JSON passed to the program as `input`. */
  input?: unknown;
  /** Wall-clock limit in ms; default what remains of the calling tool's timeout, at most 300000. */
  timeout?: number;
  /** Extra source files the program may import by relative path, e.g. `{ 'util.ts': '...' }`. */
  modules?: Record<string, string>;
  /**
   * Let the program use `fetch`. Default false: the isolate has no network at all. When granted,
   * every request goes through the calling tool's `state.fetch` (the egress policy and its rules).
   */
  network?: boolean;
  /** Thread paths the program may read or write through `files`, each checked by the thread's rules. */
  files?: { read?: string[]; write?: string[] };
  /** Tools of the thread's agent the program may call as `tools.<name>(args)`, through `invokeTool`. */
  tools?: string[];
  /** Estimated allocation limit in MiB; default 64, at most 128. */
  memoryMB?: number;
}

/** A line the program printed with `console.*`. */
export interface RunCodeLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

/** What a program of `state.runCode` came to, as data (CODE-1). */
export type RunCodeResult =
  | { status: 'success'; result: unknown; logs: RunCodeLog[]; logsDropped: number }
  | {
      status: 'error';
      error: string;
      /** Where the error was thrown: `program` or a module's name, and the line in that source. */
      file?: string;
      line?: number;
      logs: RunCodeLog[];
      logsDropped: number;
    };
