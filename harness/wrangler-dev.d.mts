/**
 * Types for wrangler-dev.mjs, which runs a real `wrangler dev` on free ports with fresh state for the
 * end-to-end tests and the benchmarks.
 */

export interface WranglerDevOptions {
  /** A wrangler.toml path relative to the repository root; default the root one. */
  config?: string;
  /** The project directory wrangler runs in; default this repository. */
  cwd?: string;
  /** Passed as `--var NAME:value`. */
  vars?: Record<string, string>;
  /**
   * Bundle the Worker once at start (`wrangler deploy --dry-run`) and serve that bundle, so source
   * edits during the run do not reload it (a reload interrupts running turns).
   */
  snapshot?: boolean;
  /** Default 90 s. */
  readyTimeoutMs?: number;
  /**
   * Keep the Worker's state (Durable Objects, R2, D1) here and leave it on stop, so a second
   * wrangler dev started with it serves the same threads (a restart).
   */
  persistTo?: string;
  /** Listen on this port instead of a free one (a restart keeps its address). */
  port?: number;
  /**
   * Default true. False leaves wrangler's DevTools inspector detached, as in production: attached, it
   * has workerd report every request and subrequest to it and buffers the reports until a DevTools
   * window connects.
   */
  inspector?: boolean;
}

export interface WranglerDev {
  /** The origin, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  readonly port: number;
  /** wrangler's DevTools inspector (Chrome DevTools Protocol), when attached. */
  readonly inspectorPort: number;
  /** The bundle served, with `snapshot` (deleted on stop); null otherwise. */
  readonly bundlePath: string | null;
  /** The wrangler process: workerd runs among its descendants. */
  readonly pid: number;
  /** When `Ready on` was printed, as performance.now() of this process. */
  readonly readyAt: number;
  /** Everything wrangler dev printed so far (the last 200 kB). */
  output(): string;
  /** Stops the whole process group (wrangler and workerd) and deletes the persisted state. */
  stop(): Promise<void>;
  /** Kills the whole process group at once, as a crash would (SIGKILL); the state stays. */
  kill(): Promise<void>;
}

/** A port nothing listens on right now, as the OS hands it out. */
export function freePort(): Promise<number>;

/** Resolves once wrangler dev prints `Ready on`; rejects with its output if it exits or times out. */
export function startWranglerDev(options?: WranglerDevOptions): Promise<WranglerDev>;
