/**
 * BEAT-1: a call running past the heartbeat interval says so every interval until it ends, as a
 * `tool_running` frame and a log line, and no timer outlives the call however it ends. The clock
 * and timers are vitest's fake ones: thirty seconds pass in no time, and a heartbeat cannot be late.
 */
import { defineTool, type ToolResult } from '@standardagents/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../../../src/engine/ports/index.js';
import { createHarness, deferred, type Harness } from '../../../support/memory-store.js';

type RunningFrame = Extract<Frame, { type: 'tool_running' }>;

let log: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  vi.useFakeTimers();
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
});

afterEach(() => {
  log.mockRestore();
  vi.useRealTimers();
});

const running = (h: Harness) => h.frames.filter((frame): frame is RunningFrame => frame.type === 'tool_running');
const lines = () =>
  log.mock.calls.map((call: unknown[]) => String(call[0])).filter((line: string) => line.startsWith('running '));

/** A tool that runs until the test lets it finish, or forever, ignoring its signal. */
function slowTool(release: Promise<void>, timeout: number) {
  return defineTool({
    description: 'Runs until released.',
    timeout,
    execute: async (): Promise<ToolResult> => {
      await release;
      return { status: 'success', result: 'finished' };
    },
  });
}

describe('BEAT-1: long calls are visible', () => {
  it('BEAT-1: a call running 75 s sends tool_running and a log line at 30 s and 60 s, then nothing once it returns', async () => {
    const release = deferred();
    const h = createHarness({
      tools: { crunch: slowTool(release.promise, 120_000) },
      script: [{ toolCalls: [{ id: 'c1', name: 'crunch' }] }, { text: 'done' }],
    });
    const turn = h.send('crunch');

    await vi.advanceTimersByTimeAsync(75_000);
    expect(running(h)).toEqual([
      { type: 'tool_running', tool_call_id: 'c1', name: 'crunch', elapsed_ms: 30_000, timeout_ms: 120_000 },
      { type: 'tool_running', tool_call_id: 'c1', name: 'crunch', elapsed_ms: 60_000, timeout_ms: 120_000 },
    ]);
    expect(lines()).toEqual(['running name=crunch elapsed=30s/120s', 'running name=crunch elapsed=60s/120s']);

    release.resolve();
    expect(await turn).toEqual({ kind: 'done', reason: 'response' });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(running(h)).toHaveLength(2);
    // The heartbeats come between the call's start and its result.
    const types = h.frameTypes();
    expect(types.indexOf('tool_running')).toBeGreaterThan(types.indexOf('tool_started'));
    expect(types.lastIndexOf('tool_running')).toBeLessThan(types.indexOf('tool_result'));
  });

  it('BEAT-1 (hostile): a call that ignores its signal and never returns beats until its timeout, then never again', async () => {
    const never = new Promise<void>(() => {});
    const h = createHarness({
      tools: { hang: slowTool(never, 70_000) },
      script: [{ toolCalls: [{ id: 'h1', name: 'hang' }] }, { text: 'moved on' }],
    });
    const turn = h.send('hang');

    await vi.advanceTimersByTimeAsync(70_000);
    expect(await turn).toEqual({ kind: 'done', reason: 'response' });
    expect(h.byRole('tool')[0]?.tool_status).toBe('error');
    expect(running(h).map((frame) => frame.elapsed_ms)).toEqual([30_000, 60_000]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(running(h)).toHaveLength(2);
  });

  it('BEAT-1: stopping the thread mid-call ends its heartbeat with it', async () => {
    const h = createHarness({
      tools: { hang: slowTool(new Promise<void>(() => {}), 600_000) },
      script: [{ toolCalls: [{ id: 's1', name: 'hang' }] }, { text: 'never' }],
    });
    const turn = h.send('hang');

    await vi.advanceTimersByTimeAsync(45_000);
    h.controller.abort();
    expect(await turn).toEqual({ kind: 'stopped' });
    expect(running(h).map((frame) => frame.elapsed_ms)).toEqual([30_000]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(running(h)).toHaveLength(1);
  });

  it('BEAT-1: a call shorter than the interval sends no heartbeat at all', async () => {
    const h = createHarness({
      tools: { quick: slowTool(Promise.resolve(), 60_000) },
      script: [{ toolCalls: [{ id: 'q1', name: 'quick' }] }, { text: 'done' }],
    });
    await h.send('quick');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(running(h)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
