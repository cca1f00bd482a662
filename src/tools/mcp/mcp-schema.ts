/**
 * An MCP tool's `inputSchema` (JSON Schema) as the thread uses it: sent to the model as the server
 * wrote it (an object schema, `$schema` dropped), and turned into a Zod schema so the model's
 * arguments are validated before anything is sent to the server (EXE-1). A schema Zod cannot read
 * validates only that the arguments are an object; the server still checks its own.
 */
import { z } from 'zod';
import type { JsonSchema } from '../../spec/index.js';

export interface McpToolArguments {
  parameters: JsonSchema;
  args: z.ZodType;
}

const ANY_OBJECT = z.looseObject({});

export function mcpToolArguments(inputSchema: unknown): McpToolArguments {
  const source = typeof inputSchema === 'object' && inputSchema !== null ? { ...inputSchema } : {};
  const { $schema: _ignored, ...schema } = source as Record<string, unknown>;
  const parameters: JsonSchema = { ...schema, type: 'object', properties: schema.properties ?? {} };
  try {
    const args = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
    return { parameters, args: args._zod.def.type === 'object' ? args : ANY_OBJECT };
  } catch {
    return { parameters, args: ANY_OBJECT };
  }
}
