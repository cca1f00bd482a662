/**
 * DEF-2: tool arguments use only the Zod types seed 001 section 3.2 allows. A tool using every one
 * of them works end to end (JSON Schema, validation, execution); every other type is refused when
 * the tool is defined, with an error naming the field path.
 */
import { DefinitionError, defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allTypesArgs } from './app.js';
import { acceptedTypes, type JsonSchema, runScript, servedTool } from './support.js';

const AGENT = 'conf_lab';
const TOOL = 'conf_all_types';

/** A valid value for every required field of `allTypesArgs` (app.ts); `note` and `size` left out. */
const valid = {
  text: 'hello',
  count: 2.5,
  flag: true,
  nothing: null,
  kind: 'fixed',
  color: 'green',
  maybe: null,
  tags: ['a', 'b'],
  point: { x: 1, y: 2 },
  scores: { alice: 3 },
  id: 'abc',
};

/** One invalid value per kind, and the field path the error must name. */
const invalid: Array<{ kind: string; path: string; args: Record<string, unknown> }> = [
  { kind: 'string', path: 'text', args: { ...valid, text: 5 } },
  { kind: 'required field', path: 'count', args: { ...valid, count: undefined } },
  { kind: 'number', path: 'count', args: { ...valid, count: 'two' } },
  { kind: 'boolean', path: 'flag', args: { ...valid, flag: 'yes' } },
  { kind: 'null', path: 'nothing', args: { ...valid, nothing: 0 } },
  { kind: 'literal', path: 'kind', args: { ...valid, kind: 'other' } },
  { kind: 'enum', path: 'color', args: { ...valid, color: 'purple' } },
  { kind: 'optional', path: 'note', args: { ...valid, note: 7 } },
  { kind: 'nullable', path: 'maybe', args: { ...valid, maybe: 'x' } },
  { kind: 'default', path: 'size', args: { ...valid, size: 'big' } },
  { kind: 'array', path: 'tags.1', args: { ...valid, tags: ['a', 1] } },
  { kind: 'object', path: 'point.y', args: { ...valid, point: { x: 1, y: '2' } } },
  { kind: 'record', path: 'scores.bob', args: { ...valid, scores: { alice: 1, bob: 'x' } } },
  { kind: 'union', path: 'id', args: { ...valid, id: true } },
];

/** Where the rejected type sits in the probe schema: inside an object, inside an array, inside an object. */
const BAD_PATH = /meta\.items\.\S*bad\b/;

function nestAt(bad: z.ZodType): z.ZodObject {
  return z.object({ ok: z.string(), meta: z.object({ items: z.array(z.object({ bad })) }) });
}

/** The error defineTool throws for `args`, or null if it accepted them. */
function definitionError(args: z.ZodObject): unknown {
  try {
    defineTool({ description: 'Probe a rejected argument type', args, execute: async () => ({ status: 'success' }) });
    return null;
  } catch (error) {
    return error;
  }
}

/** The allowed kinds, placed where the rejected ones are probed: the probe itself is not what fails. */
const accepted: Array<{ kind: string; schema: () => z.ZodType }> = [
  { kind: 'z.string()', schema: () => z.string() },
  { kind: 'z.number()', schema: () => z.number() },
  { kind: 'z.boolean()', schema: () => z.boolean() },
  { kind: 'z.null()', schema: () => z.null() },
  { kind: 'z.literal(...)', schema: () => z.literal('fixed') },
  { kind: 'z.enum(...)', schema: () => z.enum(['a', 'b']) },
  { kind: 'z.string().optional()', schema: () => z.string().optional() },
  { kind: 'z.string().nullable()', schema: () => z.string().nullable() },
  { kind: 'z.number().default(...)', schema: () => z.number().default(1) },
  { kind: 'z.array(...)', schema: () => z.array(z.string()) },
  { kind: 'z.object(...)', schema: () => z.object({ inner: z.string() }) },
  { kind: 'z.record(...)', schema: () => z.record(z.string(), z.number()) },
  { kind: 'z.union(...)', schema: () => z.union([z.string(), z.number()]) },
  { kind: 'the whole conf_all_types schema', schema: () => allTypesArgs },
];

/** Zod types outside the allowed list, each a real schema in the installed Zod. */
const rejected: Array<{ kind: string; schema: () => z.ZodType }> = [
  { kind: 'z.date()', schema: () => z.date() },
  { kind: 'z.bigint()', schema: () => z.bigint() },
  { kind: 'z.any()', schema: () => z.any() },
  { kind: 'z.unknown()', schema: () => z.unknown() },
  { kind: 'z.function()', schema: () => z.function() as unknown as z.ZodType },
  { kind: 'z.string().transform(...)', schema: () => z.string().transform((value) => value.length) },
  { kind: 'z.string().pipe(...)', schema: () => z.string().pipe(z.string()) },
  { kind: 'z.preprocess(...)', schema: () => z.preprocess((value) => value, z.string()) },
  { kind: 'z.map(...)', schema: () => z.map(z.string(), z.number()) },
  { kind: 'z.set(...)', schema: () => z.set(z.string()) },
  { kind: 'z.promise(...)', schema: () => z.promise(z.string()) },
  { kind: 'z.symbol()', schema: () => z.symbol() },
  {
    kind: 'z.intersection(...)',
    schema: () => z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
  },
  { kind: 'z.lazy(...)', schema: () => z.lazy(() => z.string()) },
  { kind: 'z.tuple(...)', schema: () => z.tuple([z.string(), z.number()]) },
  { kind: 'z.never()', schema: () => z.never() },
  { kind: 'z.undefined()', schema: () => z.undefined() },
  { kind: 'z.void()', schema: () => z.void() },
  { kind: 'z.nan()', schema: () => z.nan() },
  { kind: 'z.string().catch(...)', schema: () => z.string().catch('fallback') },
  { kind: 'z.string().readonly()', schema: () => z.string().readonly() },
  { kind: 'z.templateLiteral(...)', schema: () => z.templateLiteral(['id-', z.number()]) },
  { kind: 'z.custom()', schema: () => z.custom<string>((value) => typeof value === 'string') },
  { kind: 'z.file()', schema: () => z.file() },
  // A disallowed type hidden behind an allowed wrapper or union is still found.
  { kind: 'z.date().optional()', schema: () => z.date().optional() },
  { kind: 'z.union([z.string(), z.date()])', schema: () => z.union([z.string(), z.date()]) },
  { kind: 'z.array(z.bigint())', schema: () => z.array(z.bigint()) },
  { kind: 'z.record(z.string(), z.map(...))', schema: () => z.record(z.string(), z.map(z.string(), z.string())) },
  // An object's catch-all is a field type too: it types every key the object does not name.
  { kind: 'z.object({}).catchall(z.date())', schema: () => z.object({}).catchall(z.date()) },
  // So is a record's key schema: it parses every key the model sends.
  {
    kind: 'z.record(z.string().transform(...), z.string())',
    schema: () =>
      z.record(
        z.string().transform((key) => key.toUpperCase()),
        z.string(),
      ),
  },
];

describe('DEF-2: allowed argument types', () => {
  it('DEF-2: GET /api/agents serves the expected JSON Schema for every allowed kind', async () => {
    const { parameters } = await servedTool(AGENT, TOOL);
    const field = (name: string): JsonSchema => parameters.properties?.[name] ?? {};
    expect(acceptedTypes(parameters)).toEqual(['object']);
    expect([...(parameters.required ?? [])].sort()).toEqual(
      ['text', 'count', 'flag', 'nothing', 'kind', 'color', 'maybe', 'tags', 'point', 'scores', 'id'].sort(),
    );
    expect(acceptedTypes(field('text'))).toEqual(['string']);
    expect(field('text').description).toBe('Free text');
    expect(acceptedTypes(field('count'))).toEqual(['number']);
    expect(acceptedTypes(field('flag'))).toEqual(['boolean']);
    expect(acceptedTypes(field('nothing'))).toEqual(['null']);
    expect(field('kind').const !== undefined ? [field('kind').const] : field('kind').enum).toEqual(['fixed']);
    expect(field('color').enum).toEqual(['red', 'green', 'blue']);
    expect(acceptedTypes(field('note'))).toEqual(['string']);
    expect(acceptedTypes(field('maybe'))).toEqual(['null', 'number']);
    expect(field('size')).toMatchObject({ type: 'number', default: 3 });
    expect(field('tags')).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(field('point')).toMatchObject({
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    });
    expect(field('scores')).toMatchObject({ type: 'object', additionalProperties: { type: 'number' } });
    expect(acceptedTypes(field('id'))).toEqual(['number', 'string']);
  });

  it('DEF-2: valid calls reach execute with parsed values, the default filled in and absent optionals absent', async () => {
    const { tools, log } = await runScript(AGENT, [
      {
        toolCalls: [
          { name: TOOL, arguments: valid },
          { name: TOOL, arguments: { ...valid, note: 'given', size: 9, maybe: 4, id: 7, color: 'red' } },
        ],
      },
      { text: 'done' },
    ]);
    const [defaults, given] = tools;
    expect(defaults).toMatchObject({ tool_status: 'success' });
    const parsed = JSON.parse(defaults?.content ?? '{}') as Record<string, unknown>;
    expect(parsed).toEqual({ ...valid, size: 3 });
    expect('note' in parsed).toBe(false);
    expect(given).toMatchObject({ tool_status: 'success' });
    expect(JSON.parse(given?.content ?? '{}')).toEqual({
      ...valid,
      note: 'given',
      size: 9,
      maybe: 4,
      id: 7,
      color: 'red',
    });
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  });

  it('DEF-2: an invalid value of each kind becomes an error tool message naming the field path', async () => {
    const { tools, log } = await runScript(AGENT, [
      { toolCalls: invalid.map((probe) => ({ name: TOOL, arguments: probe.args })) },
      { text: 'corrected' },
    ]);
    expect(tools).toHaveLength(invalid.length);
    for (const [index, probe] of invalid.entries()) {
      const message = tools[index];
      expect(message?.tool_status, probe.kind).toBe('error');
      expect(message?.content, probe.kind).toContain(`Invalid arguments for tool "${TOOL}"`);
      expect(message?.content, probe.kind).toContain(`${probe.path}: `);
      expect(message?.envelope, probe.kind).toMatchObject({ type: 'error' });
    }
    // The model gets to correct itself: the loop went on to the next step.
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'corrected' });
  });

  it.each(accepted)('DEF-2: defineTool accepts $kind at the same field path', ({ schema }) => {
    expect(definitionError(nestAt(schema()))).toBeNull();
  });

  it.each(rejected)('DEF-2: defineTool rejects $kind with a DefinitionError naming the field path', ({ schema }) => {
    const error = definitionError(nestAt(schema()));
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toMatch(BAD_PATH);
  });
});
