/**
 * The script the offline model follows when no real model is configured: it calls any tool the user
 * names, with the JSON object written right after the name as its arguments (`units__world_clock
 * {"city":"Tokyo"}`), or else the user's words as `query` and `message`; then it reports what the
 * tools returned. Enough to watch a whole tool round trip without an API key.
 */
import type { ModelMessage, ScriptedReply, ScriptedRequest } from '../../spec/index.js';

function text(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The JSON object written right after `name` in the user's words, if there is one. */
function writtenArguments(said: string, name: string): Record<string, unknown> | null {
  const after = said.slice(said.indexOf(name) + name.length).trimStart();
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

export function demoScript(request: ScriptedRequest): ScriptedReply {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    const results: string[] = [];
    for (let index = messages.length - 1; index >= 0; index--) {
      const message = messages[index] as ModelMessage;
      if (message.role !== 'tool') break;
      results.unshift(text(message.content));
    }
    return { text: `Here is what the tools returned:\n${results.join('\n')}` };
  }
  const said = last?.role === 'user' ? text(last.content) : '';
  const named = request.toolNames.filter((name) => said.includes(name));
  if (named.length > 0) {
    // The example tools take their text as `query` (function tools) or `message` (prompts and agents).
    return {
      toolCalls: named.map((name) => ({
        name,
        arguments: writtenArguments(said, name) ?? { query: said, message: said },
      })),
    };
  }
  const offer =
    request.toolNames.length > 0 ? ` Name one of my tools and I will call it: ${request.toolNames.join(', ')}.` : '';
  return {
    text: `(offline demo model: set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL for a real one) You said: "${said}".${offer}`,
  };
}
