/**
 * dual_ai agents (DEF-6, EXE-7): two model sides take turns in one thread, each seeing itself as
 * the assistant and the other as the user, until a stop tool or maxSessionTurns ends the session.
 */
import {
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type ModelMessage,
  type ScriptedReply,
  type ScriptedRequest,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { needsTurn } from '../../../../src/engine/conversation/index.js';
import type { AppDefinitions } from '../../../../src/engine/registry/index.js';
import { ALLOW_EVERYTHING, createHarness, MemoryThreadStore } from '../../../support/memory-store.js';

const conclude = defineTool({
  description: 'End the debate with a verdict',
  args: z.object({ verdict: z.string(), confidence: z.number() }),
  execute: async () => ({ status: 'success', result: 'debate closed' }),
});

const whoAmI = defineTool({
  description: 'Report the side running this tool',
  execute: async (state) => ({ status: 'success', result: `side ${state.execution?.currentSide}` }),
});

/** Answers `<label><n>`, n counting this side's own answers so far, unless `override` decides. */
function speaker(label: string, override?: (request: ScriptedRequest, n: number) => ScriptedReply | undefined) {
  return (request: ScriptedRequest): ScriptedReply => {
    const n = request.messages.filter((m: ModelMessage) => m.role === 'assistant' && m.content).length + 1;
    return override?.(request, n) ?? { text: `${label}${n}` };
  };
}

function debate(options: {
  a?: ReturnType<typeof speaker>;
  b?: ReturnType<typeof speaker>;
  maxSessionTurns?: number;
  sideA?: Record<string, unknown>;
  sideB?: Record<string, unknown>;
}): AppDefinitions {
  return {
    tools: { conclude, who_am_i: whoAmI },
    models: [
      defineModel({ name: 'model_a', provider: 'scripted', script: options.a ?? speaker('A') }),
      defineModel({ name: 'model_b', provider: 'scripted', script: options.b ?? speaker('B') }),
    ],
    prompts: [
      definePrompt({ name: 'pro', prompt: 'Argue for.', model: 'model_a', tools: ['conclude', 'who_am_i'] }),
      definePrompt({ name: 'con', prompt: 'Argue against.', model: 'model_b', tools: ['conclude', 'who_am_i'] }),
    ],
    agents: [
      defineAgent({
        name: 'debate',
        type: 'dual_ai',
        maxSessionTurns: options.maxSessionTurns,
        sideA: { prompt: 'pro', ...options.sideA },
        sideB: { prompt: 'con', ...options.sideB },
      }),
    ],
    permissions: ALLOW_EVERYTHING,
  };
}

const roles = (messages: readonly ModelMessage[]) =>
  messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`);

describe('DEF-6: dual_ai agents', () => {
  it('DEF-6, EXE-7: the sides alternate, each seeing itself as assistant, until maxSessionTurns', async () => {
    const h = createHarness({ definitions: debate({ maxSessionTurns: 4 }), agent: 'debate' });
    expect(await h.send('Is tea better than coffee?')).toEqual({ kind: 'done', reason: 'session_turns' });
    const answers = h.byRole('assistant').map((m) => [m.content, m.metadata?.side]);
    expect(answers).toEqual([
      ['A1', 'a'],
      ['B1', 'b'],
      ['A2', 'a'],
      ['B2', 'b'],
    ]);
    // Side B's second request: its own answers as the assistant's, A's as the user's.
    expect(roles(h.requests[3]?.messages ?? [])).toEqual([
      'system:Argue against.',
      'user:Is tea better than coffee?',
      'user:A1',
      'assistant:B1',
      'user:A2',
    ]);
    expect(roles(h.requests[2]?.messages ?? [])).toEqual([
      'system:Argue for.',
      'user:Is tea better than coffee?',
      'assistant:A1',
      'user:B1',
    ]);
    expect(needsTurn(h.store.messages())).toBe(false);
    // A new message from outside starts a new session, side A first.
    expect(await h.send('And water?')).toEqual({ kind: 'done', reason: 'session_turns' });
    expect(h.byRole('assistant').map((m) => m.content)).toEqual(['A1', 'B1', 'A2', 'B2', 'A3', 'B3', 'A4', 'B4']);
  });

  it("DEF-6: a side's stop tool ends the session; stopToolResponseProperty is its answer; tool traffic stays private", async () => {
    const b = speaker('B', (_request, n) =>
      n === 2
        ? {
            toolCalls: [
              { name: 'who_am_i' },
              { name: 'conclude', arguments: { verdict: 'tea wins', confidence: 0.9 } },
            ],
          }
        : undefined,
    );
    const h = createHarness({
      definitions: debate({ b, sideB: { stopTool: 'conclude', stopToolResponseProperty: 'verdict' } }),
      agent: 'debate',
    });
    expect(await h.send('Tea or coffee?')).toEqual({ kind: 'done', reason: 'stop_tool', answer: 'tea wins' });
    expect(h.byRole('tool').map((m) => [m.content, m.metadata?.side])).toEqual([
      ['side b', 'b'],
      ['debate closed', 'b'],
    ]);
    expect(h.store.messages().at(-1)?.metadata?.turn_end).toEqual({
      side: 'b',
      reason: 'stop_tool',
      next: null,
      answer: 'tea wins',
    });
    expect(h.requests).toHaveLength(4);
    expect(needsTurn(h.store.messages())).toBe(false);
  });

  it("DEF-6: a side never sees the other side's tool calls or results", async () => {
    const a = speaker('A', (request, n) => {
      const last = request.messages.at(-1);
      if (n === 1 && last?.role === 'user') return { toolCalls: [{ name: 'who_am_i' }] };
      return undefined;
    });
    const h = createHarness({ definitions: debate({ a, maxSessionTurns: 2 }), agent: 'debate' });
    await h.send('Topic');
    expect(h.byRole('tool').map((m) => m.content)).toEqual(['side a']);
    expect(roles(h.requests.at(-1)?.messages ?? [])).toEqual(['system:Argue against.', 'user:Topic', 'user:A1']);
  });

  it('DEF-6: with stopOnResponse false a side keeps going after text, until its stop tool', async () => {
    const a = speaker('A', (_request, n) =>
      n === 3 ? { toolCalls: [{ name: 'conclude', arguments: { verdict: 'done', confidence: 1 } }] } : undefined,
    );
    const h = createHarness({
      definitions: debate({ a, sideA: { stopOnResponse: false, stopTool: 'conclude' } }),
      agent: 'debate',
    });
    expect(await h.send('Go')).toMatchObject({ kind: 'done', reason: 'stop_tool' });
    expect(h.byRole('assistant').map((m) => m.content ?? 'call')).toEqual(['A1', 'A2', 'call']);
    expect(h.requests).toHaveLength(3);
  });

  it('DEF-6: maxSteps limits one side turn', async () => {
    const b = speaker('B', () => ({ toolCalls: [{ name: 'who_am_i' }] }));
    const h = createHarness({ definitions: debate({ b, sideB: { maxSteps: 2 } }), agent: 'debate' });
    const outcome = await h.send('Go');
    expect(outcome).toMatchObject({ kind: 'limit' });
    expect(h.byRole('assistant').filter((m) => m.metadata?.side === 'b')).toHaveLength(2);
  });

  it('SUB-4: a message addressed to side B (to_side) is answered by side B first', async () => {
    const h = createHarness({ definitions: debate({ maxSessionTurns: 2 }), agent: 'debate' });
    h.user('For you, B', { metadata: { to_side: 'b' } });
    await h.run();
    expect(h.byRole('assistant').map((m) => m.content)).toEqual(['B1', 'A1']);
  });

  it('THR-3: a restart between an answer and its turn marker hands over to the other side', async () => {
    const store = new MemoryThreadStore({ agentId: 'debate' });
    store.append({ role: 'user', content: 'Topic' });
    store.append({ role: 'assistant', content: 'A1', metadata: { side: 'a' } });
    expect(needsTurn(store.messages())).toBe(true);
    const h = createHarness({ definitions: debate({ maxSessionTurns: 2 }), agent: 'debate', store });
    expect(await h.run()).toEqual({ kind: 'done', reason: 'session_turns' });
    expect(h.byRole('assistant').map((m) => m.content)).toEqual(['A1', 'B1']);
    expect(h.requests).toHaveLength(1);
  });

  it('DEF-6: definition errors name the problem', () => {
    expect(() =>
      defineAgent({ name: 'x', type: 'dual_ai', sideA: { prompt: 'p' }, sideB: { prompt: 'q' }, maxSessionTurns: 0 }),
    ).toThrow('maxSessionTurns must be a positive integer');
    expect(() => defineAgent({ name: 'x', sideA: { prompt: 'p', stopToolResponseProperty: 'v' } })).toThrow(
      'sideA.stopToolResponseProperty needs a stopTool',
    );
    expect(() => defineAgent({ name: 'x', type: 'dual_ai', sideA: { prompt: 'p' } })).toThrow('needs sideB');
  });
});
