/**
 * Which tools the offline demo model calls, and with what (demo-script.ts). A tool is called when
 * its name stands alone as a word in the user's message: not inside a longer word or name (letters,
 * digits, `_` and `-` continue a word). A name that is one plain word (letters only: `write`, `read`,
 * `task`, `todo`, `brainstorm`) is an ordinary word in a sentence too, so it calls the tool only when
 * written in backticks (`` `write` ``) or followed by a JSON object of arguments (`write {"path":…}`).
 * The arguments are the JSON object written right after the name, as the user wrote it; without one,
 * `{}` plus the defaults the schema gives its required fields. Nothing is invented.
 */
import type { JsonSchema, ScriptedToolCall } from '../../spec/index.js';

/** Characters that continue a word or a tool name. */
const WORD_CHARACTER = /[A-Za-z0-9_-]/;
/** A name that is one plain word, which a sentence can hold without meaning the tool. */
const PLAIN_WORD = /^[A-Za-z]+$/;

/** The JSON object that starts `text` (after spaces), if there is one. */
function leadingObject(text: string): Record<string, unknown> | null {
  const after = text.trimStart();
  if (!after.startsWith('{')) return null;
  for (let end = after.indexOf('}'); end !== -1; end = after.indexOf('}', end + 1)) {
    try {
      const value: unknown = JSON.parse(after.slice(0, end + 1));
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not yet the whole object: a later brace may close it.
    }
  }
  return null;
}

/** Where `name` stands alone as a word in `said`: each start index. */
function wholeWordAt(said: string, name: string): number[] {
  const found: number[] = [];
  for (let at = said.indexOf(name); at !== -1; at = said.indexOf(name, at + 1)) {
    const before = at > 0 ? (said[at - 1] as string) : '';
    const after = said[at + name.length] ?? '';
    if (!WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after)) found.push(at);
  }
  return found;
}

/** The tool call `said` asks for with `name`, or null when the name is only a word in a sentence. */
function callFor(said: string, name: string, schema: JsonSchema | undefined): ScriptedToolCall | null {
  for (const at of wholeWordAt(said, name)) {
    const written = leadingObject(said.slice(at + name.length));
    if (written) return { name, arguments: written };
    const quoted = said[at - 1] === '`' && said[at + name.length] === '`';
    if (quoted || !PLAIN_WORD.test(name)) return { name, arguments: requiredDefaults(schema) };
  }
  return null;
}

/** `{}` plus the `default` of each required property that has one: what a caller may leave out. */
export function requiredDefaults(schema: JsonSchema | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  const values: Record<string, unknown> = {};
  for (const key of required) {
    if (typeof key !== 'string') continue;
    const property = properties[key];
    if (property && 'default' in property) values[key] = property.default;
  }
  return values;
}

/** The calls the user's message asks for, in the order of the offered tools. */
export function namedToolCalls(
  said: string,
  toolNames: readonly string[],
  schemas: Readonly<Record<string, JsonSchema>> = {},
): ScriptedToolCall[] {
  const calls: ScriptedToolCall[] = [];
  for (const name of toolNames) {
    const call = callFor(said, name, schemas[name]);
    if (call) calls.push(call);
  }
  return calls;
}
