/**
 * Helpers shared by the conformance suite: drive a thread of one of the conformance agents through
 * HTTP and read back what a client observes.
 */
import type { Message, ScriptedReply } from '@standardagents/spec';
import { api, createThread, settled } from '../../support/api.js';
import { directive } from '../../support/directive-script.js';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
};

export interface ServedTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

interface ServedAgent {
  name: string;
  variables: Array<{ name: string; type: string; required: boolean; description: string }>;
  sideA: { prompt: { name: string; tools: ServedTool[] } };
}

/** The agent as `GET /api/agents` serves it. */
export async function servedAgent(agent: string): Promise<ServedAgent> {
  const response = await api('/api/agents');
  const body = (await response.json()) as { agents: ServedAgent[] };
  const found = body.agents.find((candidate) => candidate.name === agent);
  if (!found) throw new Error(`GET /api/agents does not list ${agent}`);
  return found;
}

/** A tool's JSON Schema as `GET /api/agents` serves it, i.e. what the model receives. */
export async function servedTool(agent: string, tool: string): Promise<ServedTool> {
  const found = (await servedAgent(agent)).sideA.prompt.tools.find((candidate) => candidate.name === tool);
  if (!found) throw new Error(`agent ${agent} does not offer ${tool}`);
  return found;
}

/** Creates a thread whose first user message scripts the model, waits for the turn to end. */
export async function runScript(
  agent: string,
  replies: ScriptedReply[],
  variables: Record<string, string> = {},
): Promise<{ id: string; log: Message[]; tools: Message[] }> {
  const id = await createThread({ agent, variables, messages: [{ content: directive(replies) }] });
  const log = await settled(id);
  return { id, log, tools: log.filter((message) => message.role === 'tool') };
}

/** The JSON types a schema accepts, whether written as `type: [...]`, `type` or `anyOf`. */
export function acceptedTypes(schema: JsonSchema): string[] {
  if (schema.anyOf) return [...new Set(schema.anyOf.flatMap(acceptedTypes))].sort();
  if (Array.isArray(schema.type)) return [...schema.type].sort();
  return schema.type ? [schema.type] : [];
}

/** Object keys of R2 under `prefix`, every page. */
export async function r2Keys(bucket: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}
