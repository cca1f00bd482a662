/**
 * DEF-2: argument schemas nested 7 levels deep work end to end: the JSON Schema the model receives,
 * validation and execution. Depth is counted as src/spec/schema.ts `assertAllowedSchema` counts it:
 * every object, array and record is one level, so a flat object has depth 1.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertAllowedSchema } from '../../../src/spec/schema.js';
import { deepArgs } from './app.js';
import { type JsonSchema, runScript, servedTool } from './support.js';

const AGENT = 'conf_lab';
const TOOL = 'conf_deep';

/** The same count over a served JSON Schema: `type: object` (records too) and `type: array` add a level. */
function jsonSchemaDepth(schema: JsonSchema | undefined): number {
  if (!schema) return 0;
  const own = schema.type === 'object' || schema.type === 'array' ? 1 : 0;
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.anyOf ?? []),
  ];
  return own + Math.max(0, ...children.map(jsonSchemaDepth));
}

/** The same count over a JSON value: every object and array is a level. */
function valueDepth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(valueDepth));
}

function deepValue(level7: Record<string, unknown>) {
  return { level2: { level3: [{ level5: { north: { level7 } } }] } };
}

describe('DEF-2: nesting depth 7', () => {
  it('DEF-2: the depth counter counts a flat object as 1 and each object, array and record as one level', () => {
    expect(assertAllowedSchema(z.object({ a: z.string() }))).toBe(1);
    expect(assertAllowedSchema(z.object({ a: z.array(z.string()) }))).toBe(2);
    expect(assertAllowedSchema(z.object({ a: z.record(z.string(), z.object({ b: z.number() })) }))).toBe(3);
    expect(assertAllowedSchema(deepArgs)).toBe(7);
  });

  it('DEF-2: GET /api/agents serves the depth-7 schema with every description and the depth-7 default kept', async () => {
    const { parameters } = await servedTool(AGENT, TOOL);
    expect(jsonSchemaDepth(parameters)).toBe(7);
    expect(jsonSchemaDepth(parameters)).toBe(assertAllowedSchema(deepArgs));

    expect(parameters).toMatchObject({ type: 'object', description: 'Depth 1 object' });
    const level2 = parameters.properties?.level2;
    expect(level2).toMatchObject({ type: 'object', description: 'Depth 2 object' });
    const level3 = level2?.properties?.level3;
    expect(level3).toMatchObject({ type: 'array', description: 'Depth 3 array' });
    const level4 = level3?.items;
    expect(level4).toMatchObject({ type: 'object', description: 'Depth 4 object' });
    const level5 = level4?.properties?.level5;
    expect(level5).toMatchObject({ type: 'object', description: 'Depth 5 record' });
    const level6 = level5?.additionalProperties as JsonSchema | undefined;
    expect(level6).toMatchObject({ type: 'object', description: 'Depth 6 object' });
    const level7 = level6?.properties?.level7;
    expect(level7).toMatchObject({ type: 'object', description: 'Depth 7 object', required: ['value'] });
    expect(level7?.properties?.value).toMatchObject({ type: 'number', description: 'Depth 7 value' });
    expect(level7?.properties?.unit).toMatchObject({ enum: ['mm', 'cm'], default: 'mm', description: 'Depth 7 unit' });
  });

  it('DEF-2: a 7-deep argument reaches execute intact with the depth-7 default filled in', async () => {
    const given = deepValue({ value: 12.5, unit: 'cm' });
    const defaulted = deepValue({ value: 3 });
    expect(valueDepth(given)).toBe(7);
    const { tools } = await runScript(AGENT, [
      {
        toolCalls: [
          { name: TOOL, arguments: given },
          // Sent as the raw JSON text a model produces.
          { name: TOOL, arguments: JSON.stringify(defaulted) },
        ],
      },
      { text: 'done' },
    ]);
    const [intact, filled] = tools;
    expect(intact).toMatchObject({ tool_status: 'success' });
    expect(JSON.parse(intact?.content ?? '')).toEqual(given);
    expect(filled).toMatchObject({ tool_status: 'success' });
    expect(JSON.parse(filled?.content ?? '')).toEqual(deepValue({ value: 3, unit: 'mm' }));
  });

  it('DEF-2: an invalid value at depth 7 gives an error tool message with the full field path', async () => {
    const { tools, log } = await runScript(AGENT, [
      {
        toolCalls: [
          { name: TOOL, arguments: deepValue({ value: 'seven' }) },
          { name: TOOL, arguments: deepValue({ value: 1, unit: 'km' }) },
        ],
      },
      { text: 'corrected' },
    ]);
    const [wrongType, wrongEnum] = tools;
    expect(wrongType).toMatchObject({ tool_status: 'error' });
    expect(wrongType?.content).toContain(`Invalid arguments for tool "${TOOL}"`);
    expect(wrongType?.content).toContain('level2.level3.0.level5.north.level7.value: ');
    expect(wrongEnum).toMatchObject({ tool_status: 'error' });
    expect(wrongEnum?.content).toContain('level2.level3.0.level5.north.level7.unit: ');
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'corrected' });
  });
});
