/**
 * The authoring API (DEF-1, DEF-2, DEF-4, DEF-6): definition-time checks of defineTool, definePrompt,
 * defineAgent, defineModel and the registry, and the JSON Schema the model receives.
 */
import {
  argumentsJsonSchema,
  DefinitionError,
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type ToolResult,
} from '@standardagents/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AppDefinitions, Registry } from '../../../src/engine/registry/index.js';
import { createHarness } from '../../support/memory-store.js';

const ok = async (): Promise<ToolResult> => ({ status: 'success', result: 'ok' });

function definitionError(fn: () => unknown): DefinitionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError, nothing was thrown');
}

function toolWithArgs(args: z.ZodObject) {
  return defineTool({ description: 'Does a thing.', args, execute: ok });
}

/** z.object nested `depth` levels deep, the innermost with a string field `leaf`. */
function nested(depth: number): z.ZodObject {
  const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  let schema: z.ZodObject = z.object({ leaf: z.string() });
  for (let level = depth - 1; level >= 1; level--) schema = z.object({ [keys[level - 1] as string]: schema });
  return schema;
}

describe('DEF-1: defineTool', () => {
  it('DEF-1: defineTool without a description throws a DefinitionError', () => {
    const missing = definitionError(() => defineTool({ execute: ok } as unknown as Parameters<typeof defineTool>[0]));
    expect(missing.message).toContain('description');
    expect(() => defineTool({ description: '', execute: ok })).toThrow(DefinitionError);
    expect(() => defineTool({ description: '   \n', execute: ok })).toThrow(DefinitionError);
    expect(() => defineTool({ description: 42 as unknown as string, execute: ok })).toThrow(DefinitionError);
  });

  it('DEF-1, DEF-2: a definition error names the tool, the file and line it was written at, and the argument', () => {
    const bad = definitionError(() =>
      defineTool({ description: 'Get the weather for a city', args: z.object({ when: z.date() }), execute: ok }),
    );
    expect(bad.message).toMatch(
      /^defineTool "Get the weather for a city" \(node\/spec\/authoring\.test\.ts:\d+\): argument "when" uses the Zod type "date"/,
    );
    const nameless = definitionError(() => defineTool({ description: '', execute: ok }));
    expect(nameless.message).toMatch(
      /^defineTool \(node\/spec\/authoring\.test\.ts:\d+\): description must be a non-empty string$/,
    );
    // One readable line wherever it is printed (wrangler dev prints the stack of a failed start).
    expect(bad.stack).toBe(`DefinitionError: ${bad.message}`);
  });

  it('DEF-1: defineTool without an execute function throws a DefinitionError', () => {
    expect(() => defineTool({ description: 'Does a thing.' } as unknown as Parameters<typeof defineTool>[0])).toThrow(
      /execute/,
    );
  });

  it('DEF-1: defineTool returns a function tool definition with its defaults', () => {
    const tool = defineTool({ description: 'Does a thing.', execute: ok });
    expect(tool).toMatchObject({
      kind: 'function',
      description: 'Does a thing.',
      args: null,
      tenvs: null,
      variables: [],
      timeout: undefined,
      idempotent: false,
    });
    expect(tool.execute).toBe(ok);
  });

  it('DEF-2: args that are not a Zod object are refused', () => {
    const error = definitionError(() =>
      defineTool({ description: 'X.', args: z.string() as unknown as z.ZodObject, execute: ok }),
    );
    expect(error.message).toContain('z.object');
  });
});

describe('DEF-2: only the allowed Zod types', () => {
  const FORBIDDEN: Array<[string, z.ZodType, string]> = [
    ['date', z.date(), 'date'],
    ['bigint', z.bigint(), 'bigint'],
    ['any', z.any(), 'any'],
    ['unknown', z.unknown(), 'unknown'],
    ['transform', z.string().transform((value) => value.length), 'pipe'],
    ['pipe', z.string().pipe(z.string()), 'pipe'],
    ['preprocess', z.preprocess((value) => value, z.string()), 'pipe'],
    ['map', z.map(z.string(), z.string()), 'map'],
    ['set', z.set(z.string()), 'set'],
    ['function', z.function() as unknown as z.ZodType, 'function'],
    ['promise', z.promise(z.string()), 'promise'],
    ['symbol', z.symbol(), 'symbol'],
    ['intersection', z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })), 'intersection'],
    ['lazy', z.lazy(() => z.string()), 'lazy'],
    ['tuple', z.tuple([z.string(), z.number()]), 'tuple'],
    ['custom', z.custom<string>(() => true), 'custom'],
    ['catch', z.string().catch('x'), 'catch'],
  ];

  for (const [label, schema, type] of FORBIDDEN) {
    it(`DEF-2: a ${label} field is refused at definition time, naming the field and the type`, () => {
      const error = definitionError(() => toolWithArgs(z.object({ field: schema })));
      expect(error.message).toContain('"field"');
      expect(error.message).toContain(`"${type}"`);
    });
  }

  it('DEF-2: a forbidden type nested in objects is named by its full path (user.birthday)', () => {
    const error = definitionError(() =>
      toolWithArgs(z.object({ user: z.object({ name: z.string(), birthday: z.date() }) })),
    );
    expect(error.message).toContain('user.birthday');
    expect(error.message).toContain('"date"');
  });

  it('DEF-2: a forbidden type inside an array of objects is named by its path', () => {
    const error = definitionError(() => toolWithArgs(z.object({ events: z.array(z.object({ at: z.bigint() })) })));
    expect(error.message).toMatch(/events\b.*\bat\b/);
    expect(error.message).toContain('"bigint"');
  });

  it('DEF-2: a forbidden type hidden behind optional, nullable, default, a record or a union is still found', () => {
    const cases: Array<[z.ZodObject, string]> = [
      [z.object({ when: z.date().optional() }), 'when'],
      [z.object({ when: z.date().nullable() }), 'when'],
      [z.object({ when: z.date().default(new Date(0)) }), 'when'],
      [z.object({ balances: z.record(z.string(), z.bigint()) }), 'balances'],
      [z.object({ value: z.union([z.string(), z.any()]) }), 'value'],
      [z.object({ deep: z.array(z.array(z.object({ x: z.map(z.string(), z.string()) }))) }), 'x'],
    ];
    for (const [args, field] of cases) {
      const error = definitionError(() => toolWithArgs(args));
      expect(error.message).toContain(field);
    }
  });

  it('DEF-2: every allowed type is accepted, alone and combined', () => {
    const args = z.object({
      text: z.string().min(1).describe('Some text'),
      count: z.number().int(),
      flag: z.boolean(),
      nothing: z.null(),
      exact: z.literal('yes'),
      choice: z.enum(['a', 'b']),
      maybe: z.string().optional(),
      nullable: z.number().nullable(),
      withDefault: z.number().default(3),
      list: z.array(z.string()),
      obj: z.object({ inner: z.string() }),
      dict: z.record(z.string(), z.number()),
      either: z.union([z.string(), z.number()]),
      tagged: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), a: z.string() }),
        z.object({ kind: z.literal('b'), b: z.number() }),
      ]),
      combo: z.array(z.object({ tags: z.record(z.string(), z.array(z.union([z.string(), z.null()]))) })).optional(),
    });
    const tool = toolWithArgs(args);
    expect(tool.args).toBe(args);
    expect(() => argumentsJsonSchema(args)).not.toThrow();
  });

  it('DEF-2: nesting to depth 7 works end to end: JSON Schema, validation and execution', async () => {
    const args = nested(7);
    const received: unknown[] = [];
    const deep = defineTool({
      description: 'Takes a deeply nested argument.',
      args,
      execute: async (_state, value) => {
        received.push(value);
        return { status: 'success', result: 'deep ok' };
      },
    });
    const good = { a: { b: { c: { d: { e: { f: { leaf: 'bottom' } } } } } } };
    const bad = { a: { b: { c: { d: { e: { f: { leaf: 7 } } } } } } };
    const h = createHarness({
      tools: { deep },
      script: [
        {
          toolCalls: [
            { id: 'good', name: 'deep', arguments: good },
            { id: 'bad', name: 'deep', arguments: bad },
          ],
        },
        { text: 'done' },
      ],
    });
    await h.send('go deep');

    // The model received the full nested schema.
    let schema = h.requests[0]?.tools[0]?.function.parameters as Record<string, unknown>;
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) {
      schema = (schema.properties as Record<string, Record<string, unknown>>)[key] as Record<string, unknown>;
      expect(schema?.type).toBe('object');
    }
    expect((schema.properties as Record<string, unknown>).leaf).toEqual({ type: 'string' });

    expect(received).toEqual([good]);
    const [ran, refused] = h.byRole('tool');
    expect(ran).toMatchObject({ tool_status: 'success', content: 'deep ok' });
    expect(refused?.tool_status).toBe('error');
    expect(refused?.content).toContain('a.b.c.d.e.f.leaf');
  });
});

describe('DEF-2: the JSON Schema the model receives', () => {
  it('DEF-2: argumentsJsonSchema keeps .describe() texts and defaults and makes defaulted fields optional', () => {
    const schema = argumentsJsonSchema(
      z.object({
        city: z.string().describe('The city to look up'),
        units: z.enum(['metric', 'imperial']).default('metric').describe('Unit system'),
        days: z.number().int().optional().describe('How many days'),
      }),
    );
    expect(schema.$schema).toBeUndefined();
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['city']);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.city).toMatchObject({ type: 'string', description: 'The city to look up' });
    expect(properties.units).toMatchObject({
      enum: ['metric', 'imperial'],
      default: 'metric',
      description: 'Unit system',
    });
    expect(properties.days).toMatchObject({ description: 'How many days' });
  });

  it('DEF-3: a tool without args is offered an empty object schema', () => {
    expect(argumentsJsonSchema(undefined)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('DEF-2: the request to the model carries each tool with its description and schema', async () => {
    const args = z.object({ q: z.string().describe('Query') });
    const search = defineTool({ description: 'Searches the notes.', args, execute: ok });
    const ping = defineTool({ description: 'Answers pong.', execute: ok });
    const h = createHarness({ tools: { search, ping }, script: [{ text: 'hi' }] });
    await h.send('hello');
    expect(h.requests[0]?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'search', description: 'Searches the notes.', parameters: argumentsJsonSchema(args) },
      },
      {
        type: 'function',
        function: { name: 'ping', description: 'Answers pong.', parameters: argumentsJsonSchema(undefined) },
      },
    ]);
  });
});

describe('DEF-4: the registry', () => {
  const model = defineModel({ name: 'm', provider: 'scripted', script: [] });
  const prompt = (name: string, tools: string[] = []) => definePrompt({ name, prompt: 'p', model: 'm', tools });
  const agent = defineAgent({ name: 'agent', sideA: { prompt: 'main' } });
  const tool = defineTool({ description: 'Does a thing.', execute: ok });
  let warn: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
  });

  function registry(definitions: Partial<AppDefinitions>, builtins = {}) {
    return new Registry({ models: [model], prompts: [prompt('main')], agents: [agent], ...definitions }, builtins);
  }

  it('DEF-4: duplicate prompt names throw a DefinitionError', () => {
    const error = definitionError(() => registry({ prompts: [prompt('main'), prompt('main')] }));
    expect(error.message).toContain('duplicate prompt name "main"');
  });

  it('DEF-4: duplicate agent and model names throw too', () => {
    expect(() => registry({ agents: [agent, agent] })).toThrow(/duplicate agent name "agent"/);
    expect(() => registry({ models: [model, model] })).toThrow(/duplicate model name "m"/);
  });

  it('DEF-4: a user tool registered under a built-in tool name is a duplicate', () => {
    expect(() => registry({ tools: { read: tool } }, { read: tool })).toThrow(/duplicate tool name "read"/);
  });

  it('DEF-4: a tool name like BadName is warned about but accepted and callable', async () => {
    const r = registry({ tools: { BadName: tool }, prompts: [prompt('main', ['BadName'])] });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('"BadName"');
    expect(r.warnings[0]).toContain('snake_case');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('BadName'));
    expect(r.toolsFor('main').map((t) => t.name)).toEqual(['BadName']);

    const h = createHarness({
      tools: { BadName: tool },
      script: [{ toolCalls: [{ name: 'BadName' }] }, { text: 'ok' }],
    });
    await h.send('go');
    expect(h.byRole('tool')[0]).toMatchObject({ name: 'BadName', tool_status: 'success' });
  });

  it('DEF-4: names over 64 characters, with dashes or camelCase are warned about; snake_case names are not', () => {
    const tooLong = `a${'_b'.repeat(32)}`;
    const r = registry({
      tools: { [tooLong]: tool, 'get-weather': tool, getWeather: tool, get_weather_2: tool, a: tool },
    });
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.join('\n')).not.toContain('get_weather_2');
    expect(r.tools.size).toBe(5);
  });

  it('DEF-4: a prompt naming an unknown tool throws, naming the prompt and the tool', () => {
    const error = definitionError(() =>
      registry({ tools: { known: tool }, prompts: [prompt('main', ['known', 'ghost'])] }),
    );
    expect(error.message).toContain('"main"');
    expect(error.message).toContain('"ghost"');
  });

  it('DEF-4: unknown models, prompts and fallbacks are caught at startup', () => {
    expect(() => registry({ prompts: [definePrompt({ name: 'main', prompt: 'p', model: 'nope' })] })).toThrow(
      /unknown model "nope"/,
    );
    expect(() => registry({ agents: [defineAgent({ name: 'agent', sideA: { prompt: 'missing' } })] })).toThrow(
      /unknown prompt "missing"/,
    );
    expect(() =>
      registry({ models: [defineModel({ name: 'm', provider: 'scripted', fallbacks: ['backup'] })] }),
    ).toThrow(/unknown model "backup"/);
  });

  it('DEF-4: something that is not a defineTool() definition is refused', () => {
    expect(() => registry({ tools: { raw: { description: 'x', execute: ok } as unknown as typeof tool } })).toThrow(
      /not a defineTool\(\) definition/,
    );
  });
});

describe('DEF-6: definePrompt, defineAgent, defineModel', () => {
  it('DEF-6: definePrompt fills its defaults', () => {
    expect(definePrompt({ name: 'p', prompt: 'Be brief.', model: 'm' })).toMatchObject({
      name: 'p',
      toolDescription: '',
      tools: [],
      includeChat: true,
      includePastTools: true,
      exposeAsTool: false,
      variables: [],
    });
  });

  it('DEF-6: definePrompt refuses a missing name or model', () => {
    expect(() => definePrompt({ name: '', prompt: 'x', model: 'm' })).toThrow(DefinitionError);
    expect(() => definePrompt({ name: 'p', prompt: 'x', model: '' })).toThrow(DefinitionError);
  });

  it('DEF-6: defineAgent fills side defaults (stopOnResponse true) and checks its type', () => {
    const agent = defineAgent({ name: 'a', sideA: { prompt: 'p', stopTool: 'finish', maxSteps: 4 } });
    expect(agent).toMatchObject({ type: 'ai_human', title: 'a', exposeAsTool: false, sideB: undefined });
    expect(agent.sideA).toEqual({
      prompt: 'p',
      stopOnResponse: true,
      stopTool: 'finish',
      stopToolResponseProperty: undefined,
      maxSteps: 4,
    });
    expect(() => defineAgent({ name: 'a', type: 'dual_ai', sideA: { prompt: 'p' } })).toThrow(/sideB/);
    expect(() => defineAgent({ name: 'a', type: 'robot' as 'ai_human', sideA: { prompt: 'p' } })).toThrow(/type/);
    expect(() => defineAgent({ name: 'a', sideA: { prompt: '' } })).toThrow(/prompt/);
  });

  it('DEF-6: defineModel checks its provider and defaults fallbacks', () => {
    expect(defineModel({ name: 'm', provider: 'openai' }).fallbacks).toEqual([]);
    expect(() => defineModel({ name: 'm', provider: 'bogus' as 'openai' })).toThrow(/provider/);
    expect(() => defineModel({ name: ' ', provider: 'openai' })).toThrow(DefinitionError);
  });
});
