/**
 * TypeScript declarations of what a sandboxed program is given (CODE-1): `input`, one async function
 * per tool under `tools` with its arguments typed from the tool's JSON Schema, and `files` when the
 * run grants it. A model shown these writes calls that fit the tools' schemas.
 *
 * The schemas are the ones zod 4's `z.toJSONSchema` produces for tool arguments: objects with
 * properties, required keys and additional properties, the scalar types, enum and const, arrays and
 * tuples, anyOf / oneOf / allOf, nullable as anyOf with null; a default makes a property optional, a
 * description becomes JSDoc. A `$ref` is shown as `unknown` rather than followed.
 */
import type { JsonSchema } from '../../spec/index.js';

export interface DeclaredTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A property or method name as TypeScript reads it: quoted unless it is an identifier. */
function memberName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A comment that cannot end early, on one line. */
function jsDoc(text: string): string {
  return `/** ${text
    .replace(/\*\//g, '*\\/')
    .replace(/\s*\n\s*/g, ' ')
    .trim()} */ `;
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

/** `A | B`, each member once, `unknown` swallowing the rest. */
function union(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes('unknown')) return 'unknown';
  if (unique.length === 0) return 'never';
  return unique.join(' | ');
}

/** Whether `type` is a union or intersection at its top level (outside braces, brackets and strings). */
function isCompound(type: string): boolean {
  let depth = 0;
  for (let i = 0; i < type.length; i += 1) {
    const char = type[i];
    if (char === '"') {
      // A JSON string literal: skip to its closing quote.
      for (i += 1; i < type.length && type[i] !== '"'; i += 1) if (type[i] === '\\') i += 1;
    } else if (char === '{' || char === '[' || char === '(') depth += 1;
    else if (char === '}' || char === ']' || char === ')') depth -= 1;
    else if (depth === 0 && (char === '|' || char === '&')) return true;
  }
  return false;
}

/** A type as an array's element or part of an intersection: a compound type needs parentheses. */
function grouped(type: string): string {
  return isCompound(type) ? `(${type})` : type;
}

function element(type: string): string {
  return `${grouped(type)}[]`;
}

function objectType(schema: JsonSchema): string {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const members = Object.entries(properties).map(([name, property]) => {
    const child = isSchema(property) ? property : {};
    const notes = [typeof child.description === 'string' ? child.description : '', defaultNote(child)]
      .filter(Boolean)
      .join(' ');
    const optional = required.has(name) ? '' : '?';
    return `${notes ? jsDoc(notes) : ''}${memberName(name)}${optional}: ${typeOf(property)}`;
  });
  const extra = schema.additionalProperties;
  if (isSchema(extra)) members.push(`[key: string]: ${typeOf(extra)}`);
  else if (extra === true || (extra === undefined && schema.properties === undefined)) {
    members.push('[key: string]: unknown');
  }
  return members.length === 0 ? '{}' : `{ ${members.join('; ')} }`;
}

function defaultNote(schema: JsonSchema): string {
  return 'default' in schema ? `(default: ${JSON.stringify(schema.default)})` : '';
}

function arrayType(schema: JsonSchema): string {
  if (Array.isArray(schema.prefixItems)) {
    const fixed = schema.prefixItems.map((item) => typeOf(item));
    if (schema.items !== false && schema.items !== undefined) fixed.push(`...${element(typeOf(schema.items))}`);
    return `[${fixed.join(', ')}]`;
  }
  return element(schema.items === undefined ? 'unknown' : typeOf(schema.items));
}

function typeNamed(name: unknown, schema: JsonSchema): string {
  switch (name) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema);
    case 'object':
      return objectType(schema);
    default:
      return 'unknown';
  }
}

/** The TypeScript type a JSON Schema describes. */
export function typeOf(schema: unknown): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (!isSchema(schema) || '$ref' in schema) return 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return union(options.map((option) => typeOf(option)));
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => typeOf(part)).filter((part) => part !== 'unknown');
    return parts.length === 0 ? 'unknown' : parts.map(grouped).join(' & ');
  }
  if (Array.isArray(schema.type)) return union(schema.type.map((name) => typeNamed(name, schema)));
  if (schema.type !== undefined) return typeNamed(schema.type, schema);
  if (isSchema(schema.properties)) return objectType(schema);
  return 'unknown';
}

function toolLine(tool: DeclaredTool): string {
  const parameters = isSchema(tool.parameters) ? tool.parameters : {};
  const required = Array.isArray(parameters.required) && parameters.required.length > 0;
  const doc = tool.description.trim() ? `  ${jsDoc(tool.description).trimEnd()}\n` : '';
  // A program's call resolves with the result's text (JSON when the tool returned data) and rejects with its error.
  return `${doc}  ${memberName(tool.name)}(args${required ? '' : '?'}: ${typeOf(parameters)}): Promise<string>;`;
}

const FILES_DECLARATION = `declare const files: {
  /** Reads a file of the thread's filesystem as text. */
  read(path: string): Promise<string>;
  /** Writes a text file of the thread's filesystem. */
  write(path: string, text: string): Promise<void>;
  /** Lists a folder of the thread's filesystem. */
  list(path?: string): Promise<unknown>;
};`;

/** The declarations a model is shown before it writes a program for these tools. */
export function toolDeclarations(tools: readonly DeclaredTool[], options: { files?: boolean } = {}): string {
  const lines = ['declare const input: unknown;'];
  lines.push(
    tools.length === 0 ? 'declare const tools: {};' : `declare const tools: {\n${tools.map(toolLine).join('\n')}\n};`,
  );
  if (options.files) lines.push(FILES_DECLARATION);
  return `${lines.join('\n')}\n`;
}
