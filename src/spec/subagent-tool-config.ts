/**
 * `SubagentToolConfig` (SUB-3): how a prompt offers an agent as a tool. The agent runs in a child
 * thread; the tool's arguments start it: one carries the first user message, one (optional) the
 * files handed over, one (optional) the child's display name, kept as a `name:<value>` tag.
 */
import { DefinitionError } from './define-tool.js';

export interface SubagentToolConfig {
  /** The agent's name. */
  name: string;
  /** Whether the call waits for the child's answer (default) or returns at once, the answer arriving later as a message. */
  blocking?: boolean;
  /** The argument carrying the child's first user message. Default `message`. */
  initUserMessageProperty?: string;
  /** An argument carrying paths of files copied into the child (ATT-4). */
  initAttachmentsProperty?: string;
  /** An argument naming the child; stored as a `name:<value>` tag. */
  initAgentNameProperty?: string;
  /** The tool is offered only when this thread variable is true, 1 or yes (any case). */
  optional?: string;
  immediate?: boolean | { nameEnv?: string; descriptionEnv?: string; scopedEnv?: string[] };
  resumable?:
    | false
    | { receives_messages: 'side_a' | 'side_b'; maxInstances?: number; parentCommunication?: 'implicit' | 'explicit' };
}

const PROPERTY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function checkSubagentToolConfig(prompt: string, config: SubagentToolConfig): SubagentToolConfig {
  const where = `definePrompt "${prompt}": subagent tool "${config.name}"`;
  if (!config.name?.trim())
    throw new DefinitionError(`definePrompt "${prompt}": a subagent tool needs the agent's name`);
  // Immediate and resumable subagents need lifecycle tools the runtime does not have yet.
  if (config.immediate) throw new DefinitionError(`${where}: immediate subagents are not supported yet`);
  if (config.resumable) throw new DefinitionError(`${where}: resumable subagents are not supported yet`);
  const properties = [config.initUserMessageProperty, config.initAttachmentsProperty, config.initAgentNameProperty];
  for (const property of properties) {
    if (property !== undefined && !PROPERTY.test(property)) {
      throw new DefinitionError(`${where}: "${property}" is not a valid argument name`);
    }
  }
  const named = properties.filter((property): property is string => property !== undefined);
  if (new Set(named).size !== named.length) throw new DefinitionError(`${where}: its init properties must differ`);
  return { ...config };
}
