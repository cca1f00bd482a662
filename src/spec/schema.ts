/**
 * Schema rules for tool arguments (DEF-2): only the Zod types the spec allows, checked when a tool is
 * defined, and the JSON Schema the model receives, produced by Zod's own converter.
 */
import { z } from 'zod';

/** The Zod types seed 001 section 3.2 allows in argument schemas. */
const ALLOWED_TYPES = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'literal',
  'enum',
  'optional',
  'nullable',
  'default',
  'array',
  'object',
  'record',
  'union',
]);

/** The nesting the spec requires implementations to support (seed 001 section 3.3). */
export const MAX_SCHEMA_DEPTH = 7;

export class SchemaRuleError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'SchemaRuleError';
  }
}

interface ZodDef {
  type: string;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: readonly z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

function formatPath(path: readonly string[]): string {
  return path.length === 0 ? '(root)' : path.join('.');
}

/**
 * Walks a schema and throws a SchemaRuleError naming the first field whose type is not allowed.
 * Depth counts containers (object, array, record): a flat object has depth 1.
 */
export function assertAllowedSchema(schema: z.ZodType, path: string[] = [], depth = 0): number {
  const def = defOf(schema);
  if (!ALLOWED_TYPES.has(def.type)) {
    throw new SchemaRuleError(
      formatPath(path),
      `argument "${formatPath(path)}" uses the Zod type "${def.type}", which tool schemas do not allow (allowed: ${[...ALLOWED_TYPES].join(', ')})`,
    );
  }
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return assertAllowedSchema(def.innerType as z.ZodType, path, depth);
    case 'array':
      return assertAllowedSchema(def.element as z.ZodType, [...path, '[]'], depth + 1);
    case 'record':
      assertAllowedSchema(def.keyType as z.ZodType, [...path, '{key}'], depth + 1);
      return assertAllowedSchema(def.valueType as z.ZodType, [...path, '{}'], depth + 1);
    case 'object': {
      let deepest = depth + 1;
      // Extra keys are arguments too; a strict object's `never` catch-all admits none.
      if (def.catchall && defOf(def.catchall).type !== 'never') {
        deepest = Math.max(deepest, assertAllowedSchema(def.catchall, [...path, '*'], depth + 1));
      }
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        deepest = Math.max(deepest, assertAllowedSchema(child, [...path, key], depth + 1));
      }
      return deepest;
    }
    case 'union': {
      let deepest = depth;
      (def.options ?? []).forEach((option, index) => {
        deepest = Math.max(deepest, assertAllowedSchema(option, [...path, `|${index}`], depth));
      });
      return deepest;
    }
    default:
      return depth;
  }
}

export type JsonSchema = Record<string, unknown>;

/** JSON Schema of a tool's arguments as the model sees it: input side, so defaulted fields are optional. */
export function argumentsJsonSchema(args: z.ZodObject | undefined): JsonSchema {
  if (!args) return { type: 'object', properties: {}, additionalProperties: false };
  const { $schema: _ignored, ...schema } = z.toJSONSchema(args, {
    io: 'input',
    unrepresentable: 'throw',
  }) as JsonSchema;
  return schema;
}
