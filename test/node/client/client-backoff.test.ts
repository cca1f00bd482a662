/**
 * The client's reconnect delays (client/backoff.ts): exponential from the first step, capped, each
 * jittered between half of and the whole of its step, and back to the first step after a reset.
 */
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../client/backoff.js';

/** The next `n` delays. */
function delays(backoff: Backoff, n: number): number[] {
  return Array.from({ length: n }, () => backoff.next());
}

describe('Backoff', () => {
  it('doubles from the first step up to the cap; with no jitter each delay is half its step', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0 });
    expect(delays(backoff, 6)).toEqual([50, 100, 200, 400, 500, 500]);
    expect(backoff.attempts).toBe(6);
  });

  it('with the most jitter each delay is its whole step, never above the cap', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0.999_999 });
    expect(delays(backoff, 6)).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('spreads delays over [step/2, step] with the default random source', () => {
    const backoff = new Backoff({ initialMs: 1000, maxMs: 1000 });
    const spread = delays(backoff, 500);
    expect(Math.min(...spread)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...spread)).toBeLessThanOrEqual(1000);
    // Not all alike: clients dropped together do not come back together.
    expect(new Set(spread).size).toBeGreaterThan(50);
  });

  it('starts over after a reset', () => {
    const backoff = new Backoff({ initialMs: 10, maxMs: 10_000, random: () => 0 });
    expect(delays(backoff, 4)).toEqual([5, 10, 20, 40]);
    backoff.reset();
    expect(backoff.attempts).toBe(0);
    expect(delays(backoff, 2)).toEqual([5, 10]);
  });

  it('keeps the cap however many failures there were, and the first step within the cap', () => {
    const backoff = new Backoff({ initialMs: 250, maxMs: 30_000, random: () => 0.5 });
    for (let i = 0; i < 2000; i++) backoff.next();
    expect(backoff.next()).toBe(22_500);
    expect(new Backoff({ initialMs: 5000, maxMs: 1000, random: () => 0 }).next()).toBe(500);
    expect(new Backoff({ random: () => 0 }).ceiling(0)).toBe(250);
    expect(new Backoff({ random: () => 0 }).ceiling(20)).toBe(30_000);
  });

  it('clamps a random source outside [0, 1)', () => {
    expect(new Backoff({ initialMs: 100, random: () => -3 }).next()).toBe(50);
    expect(new Backoff({ initialMs: 100, random: () => 7 }).next()).toBe(100);
  });
});
