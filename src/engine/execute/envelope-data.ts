/**
 * The `data` of a stored output envelope (ENV-1, seed 003 "Tool result envelope"): the tool's value
 * as JSON when its result is JSON, so a client reads `envelope.data.temperature` instead of parsing
 * text; else the result text. A truncated result is `{ head, truncated: true, output_path }` as seed
 * 003 writes it: the head is text cut at a byte limit, never parsed. What the model reads is the
 * text either way.
 *
 * Only an object or an array counts as JSON here: a tool returning the text "42" or "true" meant
 * text, and its data stays the string. A value nested deeper than the envelope's readers can walk
 * (the scrubber, storage, the WebSocket frame all recurse) stays text too; the check counts brackets
 * in a loop, before any parse.
 */
import type { TruncatedText } from '../files/index.js';

/** The deepest JSON kept as a value; deeper results stay text. */
export const MAX_DATA_DEPTH = 64;

/** Whether `text` opens more than `limit` arrays or objects inside each other (strings skipped). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      if (++depth > limit) return true;
    } else if (char === ']' || char === '}') depth--;
  }
  return false;
}

/** The JSON object or array `text` holds, or undefined when it holds none (or one too deep). */
function jsonValue(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  if (nestsDeeperThan(text, MAX_DATA_DEPTH)) return undefined;
  try {
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}

/** The envelope's `data` for a success whose (scrubbed) text was shaped into `cut`. */
export function envelopeData(cut: TruncatedText): unknown {
  if (cut.truncated) {
    return cut.outputPath === undefined
      ? { head: cut.head, truncated: true }
      : { head: cut.head, truncated: true, output_path: cut.outputPath };
  }
  return jsonValue(cut.head) ?? cut.head;
}
