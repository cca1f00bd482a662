/**
 * Models through the HTTP API (THR-4): a Worker that is not in demo mode refuses a model without
 * credentials instead of inventing an answer, `GET /api/agents` says which models are configured,
 * and usage totals and budgets are visible on the thread and its stream.
 */
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

interface Totals {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: number;
  steps: number;
}

interface Details {
  status: string;
  last_error: string | null;
  usage: { thread: Totals; turn: Totals };
  budget: { maxTokens?: number; maxCost?: number } | null;
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

describe('THR-4: no silent demo model', () => {
  it('THR-4: a model without credentials fails the turn with an error naming what to set, not demo text', async () => {
    const id = await createThread({ agent: 'unconfigured', messages: [{ content: 'hello' }] });
    const log = await settled(id);
    expect(log.filter((message) => message.role === 'assistant')).toEqual([]);
    const view = await details(id);
    expect(view.status).toBe('error');
    expect(view.last_error).toBe(
      'model "unconfigured" (openai) is not configured: set UNSET_TEST_KEY (wrangler secret put UNSET_TEST_KEY)',
    );
  });

  it('THR-4: GET /api/agents lists every model and whether this Worker can call it', async () => {
    const body = (await (await api('/api/agents')).json()) as {
      models: { name: string; provider: string; configured: boolean; missing: string[] }[];
    };
    expect(body.models).toEqual(
      expect.arrayContaining([
        { name: 'unconfigured', provider: 'openai', configured: false, missing: ['UNSET_TEST_KEY'], demo: false },
        { name: 'priced', provider: 'scripted', configured: true, missing: [], demo: false },
      ]),
    );
  });
});

describe('THR-4: usage and budgets over HTTP and the stream', () => {
  const step = (tokens: number) => ({
    toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
    usage: { promptTokens: tokens, completionTokens: 100 },
  });

  it('THR-4: each step streams a usage frame; the thread shows its turn and thread totals, priced', async () => {
    const id = await createThread({ agent: 'budgeted' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([step(900), { text: 'done', usage: { promptTokens: 1000, completionTokens: 50 } }]) },
    });
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    const usage = stream.frames.filter((frame) => frame.type === 'usage') as unknown as {
      step: Totals;
      thread: Totals;
    }[];
    stream.close();
    expect(usage.map((frame) => frame.step.total_tokens)).toEqual([1000, 1050]);
    const view = await details(id);
    expect(view.usage.thread).toMatchObject({ input_tokens: 1900, output_tokens: 150, total_tokens: 2050, steps: 2 });
    expect(view.usage.turn).toEqual(view.usage.thread);
    // $1000 per million tokens: 2.05 dollars.
    expect(view.usage.thread.cost_usd).toBeCloseTo(2.05, 8);
    expect(view.budget).toEqual({ maxTokens: 100_000 });
  });

  it("THR-4: a thread's own budget ends a runaway turn with a budget_exceeded error frame", async () => {
    const id = await createThread({ agent: 'budgeted', budget: { maxCost: 2 } });
    const stream = await openStream(id);
    // A model that would call tools forever at a dollar a step.
    const forever = directive(Array.from({ length: 40 }, () => step(900)));
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: forever } });
    const error = await stream.waitFor((frame) => frame.type === 'error');
    stream.close();
    expect(error).toMatchObject({ type: 'error', code: 'budget_exceeded' });
    const view = await details(id);
    expect(view.budget).toEqual({ maxTokens: 100_000, maxCost: 2 });
    expect(view.usage.thread.steps).toBe(2);
    expect((await messages(id)).filter((message) => message.role === 'assistant')).toHaveLength(2);
  });

  it('THR-4: a budget that is not positive numbers is refused with 400 and no thread', async () => {
    const response = await api('/api/threads', {
      method: 'POST',
      json: { agent: 'budgeted', budget: { maxCost: -1 } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });
});
