/**
 * `state.invokeTool` (THR-7): a tool calling another tool of its agent goes through the executor's
 * whole pipeline, is stored one level below the calling call, and pauses the calling call when it
 * waits for an answer; the calling call then runs again and replays what it had invoked.
 */
import { defineAgent, defineModel, definePrompt, defineTool, type PermissionRule } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from '../../../support/memory-store.js';

/** Side effects of `bump`, so a test sees whether it ran twice. */
let bumps = 0;

const bump = defineTool({
  description: 'Add one to a counter',
  execute: async () => {
    bumps++;
    return { status: 'success', result: `bumped to ${bumps}` };
  },
});

const double = defineTool({
  description: 'Double a number',
  args: z.object({ n: z.number() }),
  execute: async (_state, args) => ({ status: 'success', result: String(args.n * 2) }),
});

const fail = defineTool({
  description: 'Always fails',
  execute: async () => ({ status: 'error', error: 'the disk is full' }),
});

/** Invokes what its arguments say, in order, and returns every outcome. */
const combine = defineTool({
  description: 'Call other tools',
  args: z.object({
    calls: z.array(
      z.object({ name: z.string(), args: z.record(z.string(), z.union([z.number(), z.array(z.string())])) }),
    ),
  }),
  execute: async (state, args) => {
    const outcomes: string[] = [];
    for (const call of args.calls) {
      try {
        const outcome = await state.invokeTool(call.name, call.args);
        outcomes.push(outcome.status === 'success' ? `ok: ${outcome.result}` : `error: ${outcome.error}`);
      } catch (error) {
        if ((error as Error).name === 'CallPaused') throw error;
        outcomes.push(`error: ${(error as Error).message}`);
      }
    }
    return { status: 'success', result: outcomes.join('\n') };
  },
});

function harness(calls: { name: string; args: Record<string, unknown> }[], rules: PermissionRule[] = []) {
  return createHarness({
    definitions: {
      tools: { bump, double, fail, combine },
      models: [
        defineModel({
          name: 'm',
          provider: 'scripted',
          script: [{ toolCalls: [{ name: 'combine', arguments: { calls } }] }, { text: 'done' }],
        }),
      ],
      prompts: [definePrompt({ name: 'p', prompt: '', model: 'm', tools: ['bump', 'double', 'fail', 'combine'] })],
      agents: [defineAgent({ name: 'a', sideA: { prompt: 'p' } })],
      permissions: [...rules, { permission: '*', pattern: '*', action: 'allow' }],
    },
    agent: 'a',
    info: { headless: false },
  });
}

describe('invokeTool', () => {
  it('THR-7: invoked calls run, are stored one level below the calling call, and stream like any call', async () => {
    const h = harness([
      { name: 'double', args: { n: 21 } },
      { name: 'double', args: { n: 4 } },
    ]);
    await h.send('go');
    const outer = h.byRole('tool').find((message) => message.name === 'combine');
    expect(outer?.content).toBe('ok: 42\nok: 8');
    const callId = outer?.tool_call_id as string;
    const nested = h.store.messages().filter((message) => message.metadata?.invoked_by === callId);
    expect(nested.map((message) => [message.role, message.depth])).toEqual([
      ['assistant', 1],
      ['tool', 1],
      ['assistant', 1],
      ['tool', 1],
    ]);
    expect(nested[0]?.tool_calls?.[0]).toMatchObject({
      id: `${callId}.1`,
      function: { name: 'double', arguments: '{"n":21}' },
    });
    expect(nested[1]).toMatchObject({ tool_call_id: `${callId}.1`, content: '42', tool_status: 'success' });
    const started = h.frames.filter((frame) => frame.type === 'tool_started').map((frame) => frame.tool_call_id);
    expect(started).toEqual([callId, `${callId}.1`, `${callId}.2`]);
    // The conversation the model sees holds only the calling call.
    const lastRequest = h.requests.at(-1);
    expect(lastRequest?.messages.filter((message) => message.role === 'tool')).toHaveLength(1);
  });

  it('THR-7: a tool the agent lacks, a denied tool and a failing tool each reject inside the calling tool', async () => {
    const h = harness(
      [
        { name: 'no_such_tool', args: {} },
        { name: 'double', args: { n: 1 } },
        { name: 'fail', args: {} },
        { name: 'combine', args: { calls: [] } },
      ],
      [{ permission: 'double', pattern: '*', action: 'deny' }],
    );
    await h.send('go');
    const lines =
      h
        .byRole('tool')
        .find((message) => message.name === 'combine')
        ?.content?.split('\n') ?? [];
    expect(lines[0]).toMatch(/^error: .*no_such_tool/);
    expect(lines[1]).toMatch(/^error: .*[Dd]enied/);
    expect(lines[2]).toBe('error: the disk is full');
    expect(lines[3]).toBe('error: tool "combine" cannot invoke itself');
  });

  it('THR-7: an invoked call that needs approval pauses the thread; after the answer, earlier calls are replayed, not rerun', async () => {
    bumps = 0;
    const h = harness(
      [
        { name: 'bump', args: {} },
        { name: 'double', args: { n: 5 } },
      ],
      [{ permission: 'double', pattern: '*', action: 'ask' }],
    );
    expect(await h.send('go')).toEqual({ kind: 'waiting' });
    expect(bumps).toBe(1);
    const [wait] = h.store.openInteractions();
    const outerId = h.store.messages().find((message) => message.tool_calls?.[0]?.function.name === 'combine')
      ?.tool_calls?.[0]?.id;
    expect(wait).toMatchObject({ kind: 'approval', toolName: 'double', toolCallId: `${outerId}.2` });
    expect(h.byRole('tool').find((message) => message.name === 'combine')).toBeUndefined();

    h.store.answerInteraction(wait?.toolCallId as string, 'approval', { approved: true });
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(bumps).toBe(1);
    expect(h.byRole('tool').find((message) => message.name === 'combine')?.content).toBe('ok: bumped to 1\nok: 10');
    // Each invoked call is stored once.
    const nestedCalls = h.store.messages().filter((message) => message.role === 'assistant' && message.depth === 1);
    expect(nestedCalls).toHaveLength(2);
  });

  it('THR-7: a rejected approval rejects the invoked call inside the calling tool', async () => {
    const h = harness([{ name: 'double', args: { n: 5 } }], [{ permission: 'double', pattern: '*', action: 'ask' }]);
    await h.send('go');
    const [wait] = h.store.openInteractions();
    h.store.answerInteraction(wait?.toolCallId as string, 'approval', { approved: false, reason: 'not now' });
    await h.run();
    expect(h.byRole('tool').find((message) => message.name === 'combine')?.content).toMatch(/^error: .*not now/);
  });

  it('THR-7: a calling call that changes its calls after a pause fails with a replay divergence', async () => {
    let run = 0;
    const shifty = defineTool({
      description: 'Invokes different things each time',
      execute: async (state) => {
        run++;
        await state.invokeTool('double', { n: run });
        return { status: 'success', result: 'unreachable' };
      },
    });
    const h = createHarness({
      definitions: {
        tools: { double, shifty },
        models: [
          defineModel({
            name: 'm',
            provider: 'scripted',
            script: [{ toolCalls: [{ name: 'shifty', arguments: {} }] }, { text: 'done' }],
          }),
        ],
        prompts: [definePrompt({ name: 'p', prompt: '', model: 'm', tools: ['double', 'shifty'] })],
        agents: [defineAgent({ name: 'a', sideA: { prompt: 'p' } })],
        permissions: [
          { permission: 'double', pattern: '*', action: 'ask' },
          { permission: '*', pattern: '*', action: 'allow' },
        ],
      },
      agent: 'a',
      info: { headless: false },
    });
    await h.send('go');
    const [wait] = h.store.openInteractions();
    h.store.answerInteraction(wait?.toolCallId as string, 'approval', { approved: true });
    await h.run();
    const result = h.byRole('tool').find((message) => message.name === 'shifty');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('replay diverged at call 1');
  });

  it('THR-7: after the calling call has ended, its invokeTool refuses', async () => {
    let kept: ((name: string, args?: Record<string, unknown>) => Promise<unknown>) | undefined;
    const leaky = defineTool({
      description: 'Keeps its state',
      execute: async (state) => {
        kept = (name, args) => state.invokeTool(name, args);
        return { status: 'success', result: 'ok' };
      },
    });
    const h = createHarness({
      tools: { leaky, double },
      script: [{ toolCalls: [{ name: 'leaky', arguments: {} }] }, { text: 'done' }],
    });
    await h.send('go');
    await expect(kept?.('double', { n: 1 })).rejects.toThrow(/has ended/);
    expect(h.store.messages().filter((message) => message.depth === 1)).toHaveLength(0);
  });
});
