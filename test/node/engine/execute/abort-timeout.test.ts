/**
 * EXE-5 and EXE-6: what a running tool knows about its execution, and how a stop request or a
 * per-tool timeout ends it. Every wait is on a promise the test controls, except the 30 ms timeout
 * itself, whose expiry is the behaviour under test.
 */
import { defineTool, type ExecutionState, type ToolResult } from '@standardagents/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERRUPTED_MESSAGE, TurnInterrupted } from '../../../../src/engine/execute/index.js';
import type { ModelResponse, Provider } from '../../../../src/engine/ports/provider.js';
import { turnStartSeq } from '../../../../src/thread/turn/busy-interrupts.js';
import { createHarness, deferred, settle } from '../../../support/memory-store.js';
import { storedMessage } from '../../../support/stored-message.js';

afterEach(() => {
  vi.useRealTimers();
});

function snapshot(execution: ExecutionState | null) {
  return execution
    ? {
        stepCount: execution.stepCount,
        currentSide: execution.currentSide,
        toolCallId: execution.toolCallId,
        toolName: execution.toolName,
        signalIsAbortSignal: execution.abortSignal instanceof AbortSignal,
        aborted: execution.abortSignal.aborted,
      }
    : null;
}

describe('EXE-5: state.execution while a tool runs', () => {
  it('EXE-5: state.execution carries stepCount, currentSide "a", an unaborted abortSignal and the toolCallId', async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      description: 'Reports its execution state.',
      execute: async (state) => {
        seen.push(snapshot(state.execution));
        return { status: 'success', result: 'ok' };
      },
    });
    const h = createHarness({
      tools: { probe },
      script: [
        { toolCalls: [{ id: 'p1', name: 'probe' }] },
        { toolCalls: [{ id: 'p2', name: 'probe' }] },
        { text: 'done' },
      ],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const base = { currentSide: 'a', toolName: 'probe', signalIsAbortSignal: true, aborted: false };
    expect(seen).toEqual([
      { ...base, stepCount: 1, toolCallId: 'p1' },
      { ...base, stepCount: 2, toolCallId: 'p2' },
    ]);
    // At rest there is no execution.
    expect(h.state().execution).toBeNull();
  });

  it('EXE-5: aborting the turn aborts the tool signal; the turn ends stopped with an error tool message', async () => {
    const started = deferred();
    const observed: { aborted?: boolean; reason?: string } = {};
    const wait = defineTool({
      description: 'Waits until it is aborted.',
      execute: (state) =>
        new Promise<ToolResult>((resolve) => {
          const signal = state.execution?.abortSignal as AbortSignal;
          signal.addEventListener('abort', () => {
            observed.aborted = signal.aborted;
            observed.reason = String((signal.reason as Error | undefined)?.message ?? signal.reason);
            resolve({ status: 'success', result: 'aborted cleanly' });
          });
          started.resolve();
        }),
    });
    const h = createHarness({
      tools: { wait },
      script: [{ toolCalls: [{ id: 'w1', name: 'wait' }] }, { text: 'must not be reached' }],
    });
    h.user('wait');
    const turn = h.run();
    await started.promise;
    h.controller.abort();

    expect(await turn).toEqual({ kind: 'stopped' });
    expect(observed.aborted).toBe(true);
    expect(observed.reason).toContain('stopped');
    const results = h.byRole('tool');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_call_id: 'w1', tool_status: 'error' });
    expect(results[0]?.content).toContain('stopped');
    expect(results[0]?.envelope?.type).toBe('error');
    // No further model step after the stop.
    expect(h.requests).toHaveLength(1);
    expect(h.store.messages().at(-1)?.role).toBe('tool');
  });

  it('EXE-5: a tool that ignores its signal is abandoned and the turn still stops promptly', async () => {
    const started = deferred();
    const stubborn = defineTool({
      description: 'Never finishes.',
      execute: () => {
        started.resolve();
        return new Promise<ToolResult>(() => {});
      },
    });
    const h = createHarness({ tools: { stubborn }, script: [{ toolCalls: [{ id: 's1', name: 'stubborn' }] }] });
    h.user('go');
    const turn = h.run();
    await started.promise;
    h.controller.abort();
    expect(await turn).toEqual({ kind: 'stopped' });
    expect(h.byRole('tool')[0]).toMatchObject({ tool_call_id: 's1', tool_status: 'error' });
  });

  it('EXE-5: after a stop, the remaining calls of the step are not executed but still get an error tool message', async () => {
    const started = deferred();
    const ran: string[] = [];
    const wait = defineTool({
      description: 'Waits until it is aborted.',
      execute: (state) =>
        new Promise<ToolResult>((resolve) => {
          ran.push('wait');
          state.execution?.abortSignal.addEventListener('abort', () => resolve({ status: 'success', result: 'x' }));
          started.resolve();
        }),
    });
    const sideEffect = defineTool({
      description: 'Sends an email.',
      execute: async () => {
        ran.push('side_effect');
        return { status: 'success', result: 'sent' };
      },
    });
    const h = createHarness({
      tools: { wait, side_effect: sideEffect },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'wait' },
            { id: 'c2', name: 'side_effect' },
          ],
        },
      ],
    });
    h.user('go');
    const turn = h.run();
    await started.promise;
    h.controller.abort();
    expect(await turn).toEqual({ kind: 'stopped' });
    await settle();

    // The log stays well-formed: every call of the step has a result...
    expect(h.byRole('tool').map((m) => [m.tool_call_id, m.tool_status])).toEqual([
      ['c1', 'error'],
      ['c2', 'error'],
    ]);
    // ...but nothing started after the user pressed stop.
    expect(ran).toEqual(['wait']);
  });

  it('EXE-5: a turn whose signal is already aborted does nothing', async () => {
    const h = createHarness({ script: [{ text: 'never' }] });
    h.user('hello');
    h.controller.abort();
    expect(await h.run()).toEqual({ kind: 'stopped' });
    expect(h.requests).toEqual([]);
    expect(h.byRole('assistant')).toEqual([]);
  });

  it('EXE-5: a stop while the model streams keeps the partial text, marked aborted, and ends stopped', async () => {
    const streaming = deferred();
    const provider: Provider = {
      complete: (request, handlers) =>
        new Promise<ModelResponse>((_resolve, reject) => {
          handlers?.onTextDelta?.('Partial ans');
          request.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          streaming.resolve();
        }),
    };
    const h = createHarness({ provider: () => provider });
    h.user('hello');
    const turn = h.run();
    await streaming.promise;
    h.controller.abort();
    expect(await turn).toEqual({ kind: 'stopped' });
    const [assistant] = h.byRole('assistant');
    expect(assistant?.content).toBe('Partial ans');
    expect(assistant?.metadata).toEqual({ aborted: true });
    const delta = h.frames.find((frame) => frame.type === 'message_delta');
    expect(delta).toMatchObject({ message_id: assistant?.id, delta: 'Partial ans' });
  });
});

describe('BUSY-4: a turn interrupted by a new message', () => {
  it('BUSY-4: the running tool is not cut and its result is stored; the calls not started are answered as interrupted, never run', async () => {
    const started = deferred();
    const finish = deferred();
    const ran: string[] = [];
    let cut = false;
    const slow = defineTool({
      description: 'Runs until the test lets it finish.',
      execute: async (state) => {
        ran.push('slow');
        state.execution?.abortSignal.addEventListener('abort', () => {
          cut = true;
        });
        started.resolve();
        await finish.promise;
        return { status: 'success', result: 'finished' };
      },
    });
    const after = defineTool({
      description: 'Sends an email.',
      execute: async () => {
        ran.push('after');
        return { status: 'success', result: 'sent' };
      },
    });
    const h = createHarness({
      tools: { slow, after },
      script: [
        {
          toolCalls: [
            { id: 's1', name: 'slow' },
            { id: 'a1', name: 'after' },
          ],
        },
        { text: 'not reached' },
      ],
    });
    // A stop would fire both signals; an interrupt fires the turn's only.
    h.deps.toolSignal = new AbortController().signal;
    h.user('go');
    const turn = h.run();
    await started.promise;
    h.controller.abort(new TurnInterrupted());
    await settle();
    finish.resolve();
    expect(await turn).toEqual({ kind: 'stopped' });
    expect(cut).toBe(false);
    expect(ran).toEqual(['slow']);
    const results = h.byRole('tool');
    expect(results.map((m) => [m.tool_call_id, m.tool_status, m.content])).toEqual([
      ['s1', 'success', 'finished'],
      ['a1', 'error', `Error: ${INTERRUPTED_MESSAGE}`],
    ]);
    // No model step after the interrupt.
    expect(h.requests).toHaveLength(1);
  });

  it("BUSY-5: a turn's first message is the first after the log's last message that is not a user message", () => {
    const log = (roles: ('user' | 'assistant' | 'tool')[]) =>
      roles.map((role, at) => storedMessage(at + 1, { role, content: 'x' }));
    expect(turnStartSeq([])).toBe(0);
    expect(turnStartSeq(log(['user']))).toBe(0);
    expect(turnStartSeq(log(['user', 'assistant', 'user', 'user']))).toBe(2);
    expect(turnStartSeq(log(['user', 'assistant', 'tool']))).toBe(3);
  });
});

describe('EXE-6: per-tool timeouts', () => {
  it('EXE-6: a tool with timeout: 30 that never resolves yields an error tool message saying it timed out after 30 ms', async () => {
    const observed: { aborted?: boolean } = {};
    const hang = defineTool({
      description: 'Hangs forever.',
      timeout: 30,
      execute: (state) =>
        new Promise<ToolResult>(() => {
          state.execution?.abortSignal.addEventListener('abort', () => {
            observed.aborted = true;
          });
        }),
    });
    const h = createHarness({
      tools: { hang },
      script: [{ toolCalls: [{ id: 'h1', name: 'hang' }] }, { text: 'It timed out, sorry.' }],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const [result] = h.byRole('tool');
    expect(result).toMatchObject({ tool_call_id: 'h1', tool_status: 'error' });
    expect(result?.content).toContain('timed out after 30 ms');
    expect(result?.content).toContain('"hang"');
    expect(observed.aborted).toBe(true);
    // The loop continued to the model's next step.
    expect(h.store.messages().at(-1)?.content).toBe('It timed out, sorry.');
  });

  it('EXE-6: a tool without a timeout gets the 60 s default', async () => {
    vi.useFakeTimers();
    const started = deferred();
    const hang = defineTool({
      description: 'Hangs forever.',
      execute: () => {
        started.resolve();
        return new Promise<ToolResult>(() => {});
      },
    });
    const h = createHarness({
      tools: { hang },
      script: [{ toolCalls: [{ name: 'hang' }] }, { text: 'ok' }],
    });
    h.user('go');
    const turn = h.run();
    await started.promise;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(h.byRole('tool')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await turn).toEqual({ kind: 'done', reason: 'response' });
    expect(h.byRole('tool')[0]?.content).toContain('timed out after 60000 ms');
  });

  it('EXE-6: a tool that finishes within its timeout is unaffected', async () => {
    const quick = defineTool({
      description: 'Answers at once.',
      timeout: 10_000,
      execute: async () => ({ status: 'success', result: 'quick' }),
    });
    const h = createHarness({ tools: { quick }, script: [{ toolCalls: [{ name: 'quick' }] }, { text: 'ok' }] });
    await h.send('go');
    expect(h.byRole('tool')[0]).toMatchObject({ tool_status: 'success', content: 'quick' });
  });

  it('EXE-6: defineTool refuses a timeout that is not a positive number', () => {
    const execute = async (): Promise<ToolResult> => ({ status: 'success' });
    expect(() => defineTool({ description: 'X.', timeout: 0, execute })).toThrow(/timeout/);
    expect(() => defineTool({ description: 'X.', timeout: -5, execute })).toThrow(/timeout/);
  });
});
