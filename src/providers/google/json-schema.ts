/**
 * JSON Schema as Gemini reads it (THR-4). Tool parameters go out as `parametersJsonSchema` and a
 * response format as `responseJsonSchema`: both take JSON Schema, but Google documents that only
 * these keywords are supported: `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`,
 * `description`, `enum` (strings and numbers), `items`, `prefixItems`, `minItems`, `maxItems`,
 * `minimum`, `maximum`, `anyOf`, `oneOf`, `properties`, `additionalProperties`, `required`, and the
 * non-standard `propertyOrdering`; and that a sub-schema with `$ref` may carry nothing but `$`
 * keywords.
 *
 * So the schemas the runtime produces (Zod's `toJSONSchema`: `$schema`, `default`, `const`,
 * `minLength`, `pattern`, `propertyNames`, `exclusiveMinimum`...) are reduced to that set, keeping
 * their meaning where it can be kept: `const` becomes a one-value `enum`, and a `default` the
 * model would otherwise never learn of is said in the description. The runtime still validates the
 * arguments against the full schema, so nothing dropped here is lost for correctness.
 */
import type { JsonSchema } from '../../spec/index.js';
import { isRecord } from '../transport/index.js';

/** Keywords whose value is copied as is. */
const PLAIN = new Set([
  '$id',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'required',
  'propertyOrdering',
]);

/** Keywords whose value is one schema. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties']);

/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST = new Set(['prefixItems', 'anyOf', 'oneOf']);

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = new Set(['properties', '$defs']);

export function geminiJsonSchema(schema: JsonSchema): JsonSchema {
  return convert(schema);
}

function convert(schema: Record<string, unknown>): JsonSchema {
  if (typeof schema.$ref === 'string') {
    // A reference may carry only `$` keywords.
    return Object.fromEntries(Object.entries(schema).filter(([key]) => key.startsWith('$') && key !== '$schema'));
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PLAIN.has(key)) out[key] = value;
    else if (ONE_SCHEMA.has(key)) out[key] = isRecord(value) ? convert(value) : value;
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map(subschema);
    else if (SCHEMA_MAP.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, subschema(entry)]));
    } else if (key === 'enum' && Array.isArray(value) && value.every(isEnumValue)) out.enum = value;
  }
  if (schema.const !== undefined && out.enum === undefined && isEnumValue(schema.const)) out.enum = [schema.const];
  if (schema.default !== undefined) {
    const note = `Default: ${JSON.stringify(schema.default)}.`;
    out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note;
  }
  return out;
}

function subschema(value: unknown): unknown {
  return isRecord(value) ? convert(value) : value;
}

function isEnumValue(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/** Whether an object schema declares any parameter (Gemini takes no schema for a function without). */
export function hasProperties(schema: JsonSchema): boolean {
  return isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
}
