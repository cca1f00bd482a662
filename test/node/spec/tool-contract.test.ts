/**
 * The tool contract as an author writes it and a model calls it: a regular tool's `outputSchema`
 * (OUT-1), the envelope's `data` (ENV-1), and the type helpers of the spec entry point (TYPES-1).
 */
import {
  defineClientTool,
  defineTool,
  type InferToolArgs,
  type InferToolContext,
  type InferToolEvent,
  type InferToolResult,
  type Message,
  type ScriptedReply,
} from '@standardagents/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { builtinTools } from '../../../src/tools/index.js';
import { HOSTILE_TOOL_RESULTS } from '../../support/hostile-corpus.js';
import { createHarness } from '../../support/memory-store.js';

const forecast = defineTool({
  description: 'Give the forecast for a city',
  // `raw`: JSON of a value to return instead of the forecast; `asText`: return that JSON as text.
  args: z.object({ city: z.string(), raw: z.string().default(''), asText: z.boolean().default(false) }),
  outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  execute: async (_state, args) => {
    if (args.raw === '') return { status: 'success', result: { city: args.city, celsius: 21 } };
    return { status: 'success', result: args.asText ? args.raw : (JSON.parse(args.raw) as never) };
  },
});

/** A tool returning exactly the text it is given. */
const echo = defineTool({
  description: 'Return the given text',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: args.text }),
});

function harness() {
  const replies: ScriptedReply[] = [];
  const h = createHarness({
    builtinTools,
    tools: { forecast, echo },
    prompt: { tools: ['forecast', 'echo', 'read'] },
    script: () => replies.shift() ?? { text: 'done' },
  });
  return {
    h,
    async call(name: string, args: Record<string, unknown>): Promise<Message> {
      replies.push({ toolCalls: [{ name, arguments: args }] }, { text: 'ok' });
      await h.send(`call ${name}`);
      return h.byRole('tool').at(-1) as Message;
    },
  };
}

describe('outputSchema on regular tools', () => {
  it('OUT-1: a result matching the output schema is kept, its value as the envelope data', async () => {
    const t = harness();
    const message = await t.call('forecast', { city: 'Oslo' });
    expect(message.tool_status).toBe('success');
    expect(message.content).toBe('{"city":"Oslo","celsius":21}');
    expect(message.envelope).toMatchObject({ type: 'output', data: { city: 'Oslo', celsius: 21 } });
  });

  it('OUT-1: a result the output schema refuses is an error result naming the field; the thread goes on', async () => {
    const t = harness();
    const message = await t.call('forecast', { city: 'Oslo', raw: '{"city":"Oslo","celsius":"warm"}' });
    expect(message.tool_status).toBe('error');
    expect(message.content).toContain("does not match the tool's output schema");
    expect(message.content).toContain('celsius:');
    expect(message.envelope?.type).toBe('error');
    const text = await t.call('forecast', { city: 'Oslo', raw: '{"city":"Oslo"}', asText: true });
    expect(text.tool_status).toBe('error');
    expect(text.content).toContain('celsius:');
    // Nothing else was harmed: the next call of the same tool succeeds.
    expect((await t.call('forecast', { city: 'Bergen' })).tool_status).toBe('success');
    expect(t.h.byRole('assistant').at(-1)?.content).toBe('ok');
  });

  it('OUT-1: JSON text matching the schema passes, kept as the schema parsed it', async () => {
    const t = harness();
    const message = await t.call('forecast', { city: 'x', raw: '{"city":"Oslo","celsius":3,"extra":1}', asText: true });
    expect(message.tool_status).toBe('success');
    expect(message.envelope).toMatchObject({ data: { city: 'Oslo', celsius: 3 } });
  });

  it('OUT-1: an output schema that is not a Zod schema is a definition error', () => {
    expect(() =>
      defineTool({
        description: 'Do something',
        outputSchema: { type: 'object' } as unknown as z.ZodString,
        execute: async () => ({ status: 'success', result: '' }),
      }),
    ).toThrow('outputSchema must be a Zod schema');
  });
});

describe("the envelope's data", () => {
  it('ENV-1: a JSON object or array result is the envelope data as a value; the model reads the same text', async () => {
    const t = harness();
    const object = await t.call('echo', { text: '{ "a": [1, 2], "b": null }' });
    expect(object.content).toBe('{ "a": [1, 2], "b": null }');
    expect(object.envelope).toMatchObject({ type: 'output', data: { a: [1, 2], b: null } });
    const array = await t.call('echo', { text: '[{"x":1}]' });
    expect(array.envelope).toMatchObject({ data: [{ x: 1 }] });
  });

  it('ENV-1: text, numbers and booleans as text, and broken or too deep JSON stay the text', async () => {
    const t = harness();
    for (const text of ['plain words', '42', 'true', ...HOSTILE_TOOL_RESULTS]) {
      const message = await t.call('echo', { text });
      expect(message.content, text.slice(0, 40)).toBe(text);
      expect(message.envelope, text.slice(0, 40)).toMatchObject({ type: 'output', data: text });
    }
  });
});

describe('type helpers', () => {
  it('TYPES-1: InferToolArgs, InferToolResult, InferToolEvent and InferToolContext read a definition', () => {
    const progress = defineTool({
      description: 'Count and report each step',
      args: z.object({ to: z.number(), label: z.string().default('n') }),
      eventSchema: z.object({ step: z.number() }),
      contextSchema: z.object({ counted: z.number() }),
      sharedContextSchema: z.object({ owner: z.string() }),
      execute: async function* () {
        yield { step: 1 };
        return { status: 'success', result: 'done' };
      },
    });
    const bare = defineTool({
      description: 'Say hello',
      execute: async () => ({ status: 'success', result: 'hello' }),
    });
    const client = defineClientTool({
      description: 'Pick a colour',
      outputSchema: z.object({ colour: z.string() }),
    });
    expectTypeOf<InferToolArgs<typeof progress>>().toEqualTypeOf<{ to: number; label: string }>();
    expectTypeOf<InferToolArgs<typeof bare>>().toEqualTypeOf<undefined>();
    expectTypeOf<InferToolResult<typeof forecast>>().toEqualTypeOf<{ city: string; celsius: number }>();
    expectTypeOf<InferToolResult<typeof bare>>().toEqualTypeOf<string>();
    expectTypeOf<InferToolResult<typeof client>>().toEqualTypeOf<unknown>();
    expectTypeOf<InferToolEvent<typeof progress>>().toEqualTypeOf<{ step: number }>();
    expectTypeOf<InferToolEvent<typeof bare>>().toEqualTypeOf<never>();
    expectTypeOf<InferToolContext<typeof progress>['local']>().toEqualTypeOf<Readonly<Partial<{ counted: number }>>>();
    expectTypeOf<InferToolContext<typeof progress>['shared']>().toEqualTypeOf<Readonly<Partial<{ owner: string }>>>();
    defineTool({
      description: 'Break its promise',
      outputSchema: z.object({ n: z.number() }),
      // @ts-expect-error: a tool with an output schema cannot return a value of another shape.
      execute: async () => ({ status: 'success', result: { n: 'one' } }),
    });
    expect(forecast.outputSchema).toBeDefined();
  });
});
