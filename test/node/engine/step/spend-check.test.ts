/**
 * The spend port of a step (IDN-6) in plain Node: before every model call the port is asked with the
 * request's estimated input tokens, priced at the model's input price; a refusal ends the turn with
 * `quota_exceeded` before the provider is called or anything is stored; after each call the hold is
 * settled with the usage the provider reported, priced (nothing for a call that failed).
 */
import { defineAgent, defineModel, definePrompt, defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SpendEstimate, SpendPort } from '../../../../src/engine/ports/index.js';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';

const echo = defineTool({
  description: 'Return the given text',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: args.text }),
});

/** A port with a quota of `tokens`, recording what it was asked and told. */
function quota(tokens: number) {
  const asked: SpendEstimate[] = [];
  const settled: { hold: string; spent: SpendEstimate | null }[] = [];
  let used = 0;
  const port: SpendPort = {
    async beforeModelCall(estimateOf) {
      const estimate = estimateOf();
      asked.push(estimate);
      if (used + estimate.tokens > tokens) return { ok: false, message: `quota of ${tokens} tokens is used up` };
      return { ok: true, hold: `hold-${asked.length}` };
    },
    async afterModelCall(hold, spent) {
      settled.push({ hold, spent });
      used += spent?.tokens ?? 0;
    },
  };
  return { port, asked, settled };
}

function harness(script: Parameters<typeof defineModel>[0]['script']) {
  return createHarness({
    definitions: {
      tools: { echo },
      models: [defineModel({ name: 'main', provider: 'scripted', prices: { input: 2, output: 4 }, script })],
      prompts: [definePrompt({ name: 'p', prompt: 'You help.', model: 'main', tools: ['echo'] })],
      agents: [defineAgent({ name: 'a', sideA: { prompt: 'p' } })],
      permissions: ALLOW_EVERYTHING,
    },
    agent: 'a',
  });
}

describe('IDN-6: the spend port', () => {
  it('a call the quota cannot take is not made: quota_exceeded, one provider call, no half message', async () => {
    const h = harness([
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: { promptTokens: 990, completionTokens: 10 } },
      { text: 'never said' },
    ]);
    const spend = quota(1010);
    h.deps.host.spend = spend.port;
    const outcome = await h.send('go');
    expect(outcome).toMatchObject({
      kind: 'limit',
      code: 'quota_exceeded',
      message: 'quota of 1010 tokens is used up',
    });
    expect(h.requests).toHaveLength(1);
    expect(h.store.messages().map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(h.frames.some((frame) => frame.type === 'message_delta' && frame.delta.includes('never'))).toBe(false);
    // Asked twice, each with an estimate of the request priced at $2 per million input tokens.
    expect(spend.asked).toHaveLength(2);
    for (const estimate of spend.asked) {
      expect(estimate.tokens).toBeGreaterThan(0);
      expect(estimate.cost).toBeCloseTo((estimate.tokens * 2) / 1_000_000, 12);
    }
    // The first call settled with what it spent: 1000 tokens, 990 in at $2 and 10 out at $4 per million.
    expect(spend.settled).toEqual([{ hold: 'hold-1', spent: { tokens: 1000, cost: (990 * 2 + 10 * 4) / 1_000_000 } }]);
  });

  it('a call that fails settles its hold with nothing spent', async () => {
    const h = harness(() => {
      throw new Error('the model is down');
    });
    const spend = quota(1_000_000);
    h.deps.host.spend = spend.port;
    expect(await h.send('go')).toMatchObject({ kind: 'failed' });
    expect(spend.settled).toEqual([{ hold: 'hold-1', spent: null }]);
  });

  it('without the port nothing is asked and the turn runs as before', async () => {
    const h = harness([{ text: 'fine' }]);
    expect(await h.send('go')).toMatchObject({ kind: 'done' });
    expect(h.requests).toHaveLength(1);
  });
});
