/**
 * How deeply JSON text nests, counted before it is parsed (THR-5). `JSON.parse` itself copes with
 * any depth, but what follows a parse walks the value recursively (the validator, the secret
 * scrubber, structured clone into the thread's Durable Object, storage), and a body of 200,000
 * nested arrays overflows their stack. So a body is refused on its depth first, by a loop over its
 * characters that keeps one counter and cannot overflow itself.
 */

/**
 * The deepest nesting any request body may have. The deepest legitimate bodies are tool outputs and
 * MCP arguments: 64 levels of arrays and objects leave them far more room than they use, and every
 * recursive reader after the parse far less than it could take.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text opens more than `limit` arrays or objects inside each other. Brackets inside
 * strings do not count. Text that is not JSON may be misjudged; the parse that follows refuses it.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      if (depth > limit) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
