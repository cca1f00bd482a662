/**
 * The script the offline model follows when no real model is configured. It calls the tools the
 * user names (demo-tool-calls.ts: a name standing alone as a word; a plain-word name such as `write`
 * only in backticks or followed by a JSON object), with the JSON object written right after the
 * name as the arguments (`units__world_clock {"city":"Tokyo"}`) or else `{}` and the schema's
 * defaults, then reports what the tools returned. As a side of a `dual_ai` thread it plays a short
 * canned exchange instead (demo-sides.ts). Enough to watch a whole tool round trip without an API key.
 */
import type { ModelMessage, ScriptedReply, ScriptedRequest } from '../../spec/index.js';
import { sideReply } from './demo-sides.js';
import { namedToolCalls } from './demo-tool-calls.js';

function text(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The results of the tool calls that ended the request's messages, oldest first. */
function lastResults(messages: readonly ModelMessage[]): string[] {
  const results: string[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ModelMessage;
    if (message.role !== 'tool') break;
    results.unshift(text(message.content));
  }
  return results;
}

export function demoScript(request: ScriptedRequest): ScriptedReply {
  const { messages, toolNames } = request;
  const schemas = request.toolSchemas ?? {};
  if (request.side) return sideReply(request.side, messages, toolNames, schemas);
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') return { text: `Here is what the tools returned:\n${lastResults(messages).join('\n')}` };
  const said = last?.role === 'user' ? text(last.content) : '';
  const calls = namedToolCalls(said, toolNames, schemas);
  if (calls.length > 0) return { toolCalls: calls };
  const offer =
    toolNames.length > 0
      ? ` Name one of my tools and I will call it (a tool named by a plain word, like \`write\`, in backticks or followed by its JSON arguments): ${toolNames.join(', ')}.`
      : '';
  return {
    text: `(offline demo model: set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL for a real one) You said: "${said}".${offer}`,
  };
}
