/**
 * A response format's JSON Schema in the subset Anthropic's structured outputs accept (THR-4): every
 * object closed (`additionalProperties: false`), and the keywords constrained decoding cannot enforce
 * (lengths, bounds, patterns, most array limits, unknown string formats) moved into the description
 * as hints. The runtime still validates the answer against the full schema when it arrives
 * (`responseFormatProblem`), so nothing is lost, only enforced later.
 */
import type { JsonSchema } from '../../spec/index.js';

/** Kept as they are; every other keyword becomes a hint. */
const KEPT = new Set(['type', 'enum', 'const', 'default', 'description', 'title', 'required']);

const STRING_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Bounds a schema generator adds for safe integers: they say nothing a model needs to hear. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

type Schema = { [keyword: string]: unknown };

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function strictSchema(schema: JsonSchema): JsonSchema {
  return strict(schema as Schema) as JsonSchema;
}

function strict(schema: Schema): Schema {
  const out: Schema = {};
  const hints: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$schema' || keyword === 'additionalProperties') continue;
    if (KEPT.has(keyword)) {
      out[keyword] = value;
    } else if (keyword === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, isSchema(property) ? strict(property) : property]),
      );
    } else if ((keyword === '$defs' || keyword === 'definitions') && isSchema(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, definition]) => [
          name,
          isSchema(definition) ? strict(definition) : definition,
        ]),
      );
    } else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') && Array.isArray(value)) {
      // One-of cannot be decoded as such; any-of is what constrained decoding offers.
      out[keyword === 'allOf' ? 'allOf' : 'anyOf'] = value.map((entry) => (isSchema(entry) ? strict(entry) : entry));
    } else if (keyword === 'items' && isSchema(value)) {
      out.items = strict(value);
    } else if (keyword === '$ref' && typeof value === 'string') {
      out.$ref = value;
    } else if (keyword === 'format' && typeof value === 'string' && STRING_FORMATS.has(value)) {
      out.format = value;
    } else if (keyword === 'minItems' && (value === 0 || value === 1)) {
      out.minItems = value;
    } else if (!(typeof value === 'number' && SAFE_INTEGER_BOUNDS.has(value))) {
      hints.push(`${keyword}: ${JSON.stringify(value)}`);
    }
  }
  const type = schema.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object')) || isSchema(schema.properties)) {
    out.additionalProperties = false;
  }
  if (hints.length > 0) {
    const said = typeof out.description === 'string' && out.description !== '' ? `${out.description}\n\n` : '';
    out.description = `${said}{${hints.join(', ')}}`;
  }
  return out;
}
