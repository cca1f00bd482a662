/**
 * Models as the loop uses them (THR-4): settings merged from the model and the prompt and sent with
 * every request, structured answers checked on arrival, usage totalled per turn and per thread and
 * priced, budgets that end a runaway turn, and context compaction when the history outgrows the
 * model's window. Also the choice of provider: a model without credentials fails its turn instead
 * of being answered by the demo model, unless the Worker is in demo mode.
 */

import {
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type ModelDefinition,
  type ScriptedReply,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUDGET_KEY, threadUsage, turnUsage } from '../../../../src/engine/conversation/index.js';
import type { Frame } from '../../../../src/engine/ports/index.js';
import { modelStatus, resolveProvider } from '../../../../src/providers/index.js';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';
import { traced } from '../../../support/span-recorder.js';

const echo = defineTool({
  description: 'Return the given text',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: args.text }),
});

function app(options: {
  model?: Partial<ModelDefinition>;
  prompt?: Partial<Parameters<typeof definePrompt>[0]>;
  agent?: Partial<Parameters<typeof defineAgent>[0]>;
  script: ScriptedReply[] | ((request: { messages: readonly { role: string; content: unknown }[] }) => ScriptedReply);
  summariser?: ScriptedReply[];
}) {
  return createHarness({
    definitions: {
      tools: { echo },
      models: [
        defineModel({ name: 'main', provider: 'scripted', script: options.script as never, ...options.model }),
        defineModel({ name: 'cheap', provider: 'scripted', script: options.summariser ?? [{ text: 'SUMMARY' }] }),
      ],
      prompts: [definePrompt({ name: 'p', prompt: 'You help.', model: 'main', tools: ['echo'], ...options.prompt })],
      agents: [defineAgent({ name: 'a', sideA: { prompt: 'p' }, ...options.agent })],
      permissions: ALLOW_EVERYTHING,
    },
    agent: 'a',
  });
}

const usageFrames = (frames: readonly Frame[]) =>
  frames.filter((frame): frame is Extract<Frame, { type: 'usage' }> => frame.type === 'usage');

describe('THR-4: model settings', () => {
  it("THR-4: the model's settings, with the prompt's over them, go with every request; the schema as JSON Schema", async () => {
    const h = app({
      model: { settings: { temperature: 0.2, maxOutputTokens: 300, stop: ['END'] } },
      prompt: {
        modelSettings: {
          temperature: 0.7,
          topP: 0.9,
          reasoningEffort: 'low',
          responseFormat: { name: 'answer', schema: z.object({ city: z.string(), degrees: z.number() }) },
        },
      },
      script: [{ text: '{"city":"Oslo","degrees":4}' }],
    });
    expect(await h.send('weather?')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests[0]?.settings).toEqual({
      temperature: 0.7,
      maxOutputTokens: 300,
      stop: ['END'],
      topP: 0.9,
      reasoningEffort: 'low',
      responseFormat: {
        name: 'answer',
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, degrees: { type: 'number' } },
          required: ['city', 'degrees'],
        },
      },
    });
  });

  it('THR-4: an answer that does not match the response format fails the turn with response_format, and is kept', async () => {
    const h = app({
      prompt: { modelSettings: { responseFormat: { schema: z.object({ city: z.string() }) } } },
      script: [{ text: '{"town":"Oslo"}' }],
    });
    const outcome = await h.send('weather?');
    expect(outcome).toMatchObject({ kind: 'failed', code: 'response_format' });
    expect(outcome.kind === 'failed' && outcome.message).toContain('city');
    expect(h.byRole('assistant').at(-1)?.content).toBe('{"town":"Oslo"}');
  });

  it('THR-4: settings out of range are a definition error naming the model', () => {
    expect(() => defineModel({ name: 'hot', provider: 'scripted', settings: { temperature: 3 } })).toThrow(
      'defineModel "hot": temperature must be 0 to 2',
    );
    expect(() =>
      definePrompt({ name: 'p', prompt: '', model: 'm', modelSettings: { stop: ['a', 'b', 'c', 'd', 'e'] } }),
    ).toThrow('at most 4');
  });
});

describe('THR-4: usage', () => {
  it('THR-4: each step streams its usage; turn and thread totals add up and are priced', async () => {
    const h = app({
      model: { prices: { input: 2, output: 10, cachedInput: 1 } },
      script: [
        {
          toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
          usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 400 },
        },
        { text: 'done', usage: { promptTokens: 2000, completionTokens: 50 } },
      ],
    });
    await h.send('go');
    const frames = usageFrames(h.frames);
    expect(frames.map((frame) => frame.step.total_tokens)).toEqual([1100, 2050]);
    // 600 input at $2 + 400 cached at $1 + 100 output at $10, per million tokens.
    expect(frames[0]?.step.cost_usd).toBeCloseTo(0.0026, 10);
    expect(frames[1]?.thread).toMatchObject({ input_tokens: 3000, output_tokens: 150, cached_tokens: 400, steps: 2 });
    expect(frames[1]?.thread.cost_usd).toBeCloseTo(0.0026 + 0.0045, 10);
    expect(threadUsage(h.store)).toEqual(frames[1]?.thread);
    // A new turn (the same two steps) starts new turn totals; the thread's go on.
    await h.send('again');
    expect(turnUsage(h.store)).toMatchObject({ steps: 2, total_tokens: 3150 });
    expect(threadUsage(h.store)).toMatchObject({ steps: 4, total_tokens: 6300 });
  });
});

describe('THR-4: budgets', () => {
  it("THR-4: an agent's maxTokens ends the turn with budget_exceeded before the model is called again", async () => {
    const step = {
      toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
      usage: { promptTokens: 600, completionTokens: 10 },
    };
    const h = app({ agent: { budget: { maxTokens: 1000 } }, script: () => step });
    const outcome = await h.send('loop forever');
    expect(outcome).toMatchObject({ kind: 'limit', code: 'budget_exceeded' });
    expect(outcome.kind === 'limit' && outcome.message).toContain('1220 tokens of its budget of 1000 (maxTokens)');
    expect(h.requests).toHaveLength(2);
  });

  it("THR-4: a thread's own maxCost is tighter than its agent's and is what stops it", async () => {
    const step = {
      toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
      usage: { promptTokens: 1000, completionTokens: 0 },
    };
    const h = app({
      model: { prices: { input: 1000, output: 0 } },
      agent: { budget: { maxCost: 100 } },
      script: () => step,
    });
    h.store.setValue(BUDGET_KEY, { maxCost: 2.5 });
    const outcome = await h.send('spend');
    expect(outcome).toMatchObject({ kind: 'limit', code: 'budget_exceeded' });
    // $1 a step: the third step reaches $3, the budget of $2.5 stops the fourth.
    expect(h.requests).toHaveLength(3);
  });
});

describe('THR-4: context compaction', () => {
  const long = 'x'.repeat(800);

  it('THR-4: when the history outgrows the window, earlier turns are summarised by compactWith and replaced by the summary', async () => {
    const h = app({
      model: { contextWindow: 600, compactWith: 'cheap', settings: { maxOutputTokens: 100 } },
      script: [{ text: 'noted' }],
      summariser: [{ text: 'The user sent three long notes.' }],
    });
    const { spans } = await traced(async () => {
      for (let turn = 0; turn < 3; turn++) await h.send(`note ${turn}: ${long}`);
    });
    const marker = h.store.messages().find((message) => message.metadata?.compaction);
    // TRACE-1: the summary's model call is a `compaction` span naming its model and the message it stored.
    const compaction = spans.find((span) => span.name === 'compaction');
    expect(compaction?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'standard_agents.message.id': marker?.id,
    });
    expect(marker).toMatchObject({ role: 'system', silent: true, content: 'The user sent three long notes.' });
    expect(marker?.metadata?.compaction).toMatchObject({ model: 'cheap' });
    const last = h.requests.at(-1);
    // The model's request: its system prompt, the summary, then the current turn only.
    expect(last?.messages.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(last?.messages[1]?.content).toBe('Summary of the conversation before:\nThe user sent three long notes.');
    // Nothing was deleted: the log still holds every message.
    expect(h.byRole('user')).toHaveLength(3);
    // The summary step's usage counts toward the thread's.
    expect(usageFrames(h.frames).some((frame) => frame.model === 'cheap')).toBe(true);
  });

  it('THR-4: a current turn that cannot fit even alone ends with context_overflow, not a provider error', async () => {
    const h = app({ model: { contextWindow: 100, settings: { maxOutputTokens: 10 } }, script: [{ text: 'never' }] });
    const outcome = await h.send(long);
    expect(outcome).toMatchObject({ kind: 'limit', code: 'context_overflow' });
    expect(h.requests).toHaveLength(0);
  });
});

describe('THR-4: which provider answers', () => {
  const openai = defineModel({ name: 'gpt', provider: 'openai', model: 'gpt-4o-mini' });
  const lookup = () => openai;

  it('THR-4: an openai model without a key or endpoint fails naming the variable, outside demo mode', async () => {
    const provider = resolveProvider(openai, lookup, {});
    await expect(provider.complete({ model: 'x', messages: [], tools: [] })).rejects.toThrow(
      'model "gpt" (openai) is not configured: set OPENAI_API_KEY (wrangler secret put OPENAI_API_KEY)',
    );
    expect(modelStatus(openai, {})).toEqual({
      name: 'gpt',
      provider: 'openai',
      configured: false,
      missing: ['OPENAI_API_KEY'],
      demo: false,
    });
  });

  it('THR-4: in demo mode the same model is answered by the offline demo script', async () => {
    const provider = resolveProvider(openai, lookup, { DEMO_MODE: 'true' });
    const response = await provider.complete({ model: 'x', messages: [{ role: 'user', content: 'hello' }], tools: [] });
    expect(response.model).toBe('offline-demo');
    expect(modelStatus(openai, { DEMO_MODE: 'true' })).toMatchObject({ configured: false, demo: true });
  });

  it('THR-4: each model reads its own key variable and endpoint', () => {
    const own = defineModel({
      name: 'router',
      provider: 'openai',
      model: 'some/model',
      apiKeyVariable: 'OPENROUTER_KEY',
      baseURL: 'https://openrouter.ai/api/v1',
    });
    expect(modelStatus(own, { OPENAI_API_KEY: 'not-this-one' })).toMatchObject({ configured: true });
    const local = defineModel({ name: 'ollama', provider: 'openai', model: 'llama3', baseURLVariable: 'OLLAMA_URL' });
    expect(modelStatus(local, {})).toMatchObject({ configured: false, missing: ['OPENAI_API_KEY'] });
    expect(modelStatus(local, { OLLAMA_URL: 'http://localhost:11434/v1' })).toMatchObject({ configured: true });
  });
});
