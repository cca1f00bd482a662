/**
 * The offline demo model as a side of a `dual_ai` thread (demo-script.ts): a short canned exchange.
 * Each side answers with a line of its own that says which side it is, never the other side's text
 * (which, quoted back, would grow with every turn). A side's first answer opens; its next one
 * closes: it calls the side's stop tool when it has one, which ends the session, and otherwise
 * says it has nothing to add until the session's turns run out.
 */
import type { JsonSchema, ModelMessage, ModelSide, ScriptedReply } from '../../spec/index.js';
import { requiredDefaults } from './demo-tool-calls.js';

const OPENING: Record<ModelSide['name'], string> = {
  a: 'Side A (offline demo model): here is a first idea on the topic. Over to side B.',
  b: 'Side B (offline demo model): a fair start; one point to weigh before going further. Over to side A.',
};

function closing(side: ModelSide['name']): string {
  return `Side ${side.toUpperCase()} (offline demo model): nothing more to add from side ${side.toUpperCase()}; that settles it.`;
}

export function sideReply(
  side: ModelSide,
  messages: readonly ModelMessage[],
  toolNames: readonly string[],
  schemas: Readonly<Record<string, JsonSchema>>,
): ScriptedReply {
  // The side's own earlier answers are the assistant's messages in its view of the log.
  const answered = messages.some((message) => message.role === 'assistant');
  if (!answered) return { text: OPENING[side.name] };
  const last = messages[messages.length - 1];
  const stop = side.stopTool;
  if (stop && toolNames.includes(stop) && last?.role !== 'tool') {
    return { text: closing(side.name), toolCalls: [{ name: stop, arguments: requiredDefaults(schemas[stop]) }] };
  }
  return { text: closing(side.name) };
}
