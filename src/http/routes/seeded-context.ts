/**
 * The tool context a thread's creator passes (CTX-1), checked before anything is stored: each key
 * must name a tool of the agent's threads that keeps a context (`contextSchema`), each value must
 * match that schema, and the whole must stay small, since every call of the tool reads it back.
 * What is stored is the schema's output as JSON: keys the schema does not name are dropped.
 */
import type { z } from 'zod';
import type { Registry } from '../../engine/registry/index.js';
import type { AgentDefinition } from '../../spec/index.js';
import { describeIssues, issueLines } from '../../spec/internal.js';
import { HttpError } from '../contract/index.js';

/** The most bytes (as JSON) the context of a new thread may hold, all tools together. */
export const MAX_SEEDED_CONTEXT_BYTES = 64 * 1024;

function refused(message: string, details: Record<string, unknown>): HttpError {
  return new HttpError({ status: 400, code: 'invalid_context', message, details });
}

/** The context to store, by tool name; throws 400 `invalid_context` naming the tool and field. */
export function seededContext(
  registry: Registry,
  agent: AgentDefinition,
  context: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const size = new TextEncoder().encode(JSON.stringify(context)).byteLength;
  if (size > MAX_SEEDED_CONTEXT_BYTES) {
    throw refused(`context is ${size} bytes as JSON; at most ${MAX_SEEDED_CONTEXT_BYTES}`, { bytes: size });
  }
  const tools = registry.contextTools(agent);
  const seeded: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(context)) {
    const tool = tools.get(name);
    if (!tool) {
      const known = [...tools.keys()];
      throw refused(
        `agent "${agent.name}" has no tool "${name}" with a contextSchema; ${known.length ? `tools with one: ${known.join(', ')}` : 'none of its tools keeps a context'}`,
        { tool: name },
      );
    }
    const checked = (tool.definition.contextSchema as z.ZodType).safeParse(value);
    if (!checked.success) {
      throw refused(`context of tool "${name}" does not match its contextSchema: ${describeIssues(checked.error)}`, {
        tool: name,
        fields: issueLines(checked.error).map((line) => line.path),
      });
    }
    seeded[name] = JSON.parse(JSON.stringify(checked.data)) as Record<string, unknown>;
  }
  return seeded;
}
