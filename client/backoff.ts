/**
 * Reconnect delays: exponential, capped, with jitter. The n-th consecutive failure waits a random
 * time between half of and the whole of `min(maxMs, initialMs * 2^n)`, so clients dropped together
 * (a deploy, a network blip) do not come back in lockstep, yet none waits less than half its step.
 * A connection that proves healthy resets the count.
 */

export interface BackoffOptions {
  /** The first step; default 250 ms. */
  initialMs?: number;
  /** The cap of every step; default 30 s. */
  maxMs?: number;
  /** A number in [0, 1); default Math.random. Tests pass a fixed one. */
  random?: () => number;
}

export const DEFAULT_INITIAL_BACKOFF_MS = 250;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

export class Backoff {
  private failures = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.maxMs = Math.max(0, options.maxMs ?? DEFAULT_MAX_BACKOFF_MS);
    this.initialMs = Math.min(this.maxMs, Math.max(0, options.initialMs ?? DEFAULT_INITIAL_BACKOFF_MS));
    this.random = options.random ?? Math.random;
  }

  /** Consecutive failures so far. */
  get attempts(): number {
    return this.failures;
  }

  /** The capped exponential step of failure `n` (0-based), before jitter. */
  ceiling(n: number): number {
    // 2^n overflows to Infinity for large n, which the cap absorbs.
    return Math.min(this.maxMs, this.initialMs * 2 ** n);
  }

  /** The delay before the next attempt; counts one more failure. */
  next(): number {
    const ceiling = this.ceiling(this.failures);
    this.failures++;
    const jitter = Math.min(Math.max(this.random(), 0), 1);
    return Math.round(ceiling / 2 + (ceiling / 2) * jitter);
  }

  reset(): void {
    this.failures = 0;
  }
}
