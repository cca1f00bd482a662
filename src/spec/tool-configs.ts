/**
 * How a prompt offers other agents and prompts among its tools.
 *
 * `SubagentToolConfig` (SUB-3, SUB-4): an agent runs in a child thread; the tool's arguments start
 * it: one carries the first user message, one (optional) the files handed over, one (optional) the
 * child's display name, kept as a `name:<value>` tag. `immediate` starts it before the prompt's first
 * model step; `resumable` makes it a long-lived instance driven through the lifecycle tools
 * `subagent_create` and `subagent_message`.
 *
 * `SubpromptConfig` (SUB-1): a prompt runs inside the calling thread, its messages kept apart one
 * level deeper; the config shapes what the call returns and which arguments start it.
 */
import { MAX_TOOL_TIMEOUT_MS } from './define-tool.js';
import { DefinitionError } from './definition-error.js';

export interface SubagentToolConfig {
  /** The agent's name. */
  name: string;
  /** Whether the call waits for the child's answer (default) or returns at once, the answer arriving later as a message. */
  blocking?: boolean;
  /**
   * How long a blocking call waits for the child's answer, in milliseconds (WAIT-1). Past it the call
   * fails naming the child, which keeps running; its answer then arrives as a message. Default and
   * maximum: ten minutes, the ceiling of any tool call.
   */
  waitTimeout?: number;
  /** The argument carrying the child's first user message. Default `message`. */
  initUserMessageProperty?: string;
  /** An argument carrying paths of files copied into the child (ATT-4). */
  initAttachmentsProperty?: string;
  /** An argument naming the child; stored as a `name:<value>` tag. */
  initAgentNameProperty?: string;
  /** The tool is offered only when this thread variable is true, 1 or yes (any case). */
  optional?: string;
  /**
   * Start the subagent as soon as the prompt becomes active, before its first model step. The
   * object form names variables of this thread: `nameEnv` the instance's name, `descriptionEnv` its
   * task (both may be shown to models), `scopedEnv` values copied into the child, never shown to a
   * model (SUB-5).
   */
  immediate?: boolean | { nameEnv?: string; descriptionEnv?: string; scopedEnv?: string[] };
  /**
   * A long-lived instance (SUB-4): created by `subagent_create`, messaged by `subagent_message`
   * (delivered to the side `receives_messages`), at most `maxInstances` at once. `implicit` parent
   * communication queues each of its answers to this thread; `explicit` only `state.notifyParent()`.
   */
  resumable?:
    | false
    | { receives_messages: 'side_a' | 'side_b'; maxInstances?: number; parentCommunication?: 'implicit' | 'explicit' };
}

const PROPERTY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Keys only a SubagentToolConfig has: a config with one of them names an agent. */
export const SUBAGENT_ONLY_KEYS = [
  'blocking',
  'waitTimeout',
  'initAgentNameProperty',
  'immediate',
  'optional',
  'resumable',
] as const;

/** Checks the argument names a tool config declares: valid identifiers, all different. */
export function checkInitProperties(where: string, properties: ReadonlyArray<string | undefined>): void {
  for (const property of properties) {
    if (property !== undefined && !PROPERTY.test(property)) {
      throw new DefinitionError(`${where}: "${property}" is not a valid argument name`);
    }
  }
  const named = properties.filter((property): property is string => property !== undefined);
  if (new Set(named).size !== named.length) throw new DefinitionError(`${where}: its init properties must differ`);
}

function checkImmediate(where: string, immediate: SubagentToolConfig['immediate']): void {
  if (immediate === undefined || typeof immediate === 'boolean') return;
  if (typeof immediate !== 'object' || immediate === null) {
    throw new DefinitionError(`${where}: immediate must be true, false or { nameEnv, descriptionEnv, scopedEnv }`);
  }
  const names = [immediate.nameEnv, immediate.descriptionEnv, ...(immediate.scopedEnv ?? [])];
  for (const name of names) {
    if (name !== undefined && !VARIABLE.test(name)) {
      throw new DefinitionError(`${where}: immediate names "${name}", which is not a variable name`);
    }
  }
}

function checkResumable(where: string, resumable: SubagentToolConfig['resumable']): void {
  if (resumable === undefined || resumable === false) return;
  if (resumable.receives_messages !== 'side_a' && resumable.receives_messages !== 'side_b') {
    throw new DefinitionError(`${where}: resumable.receives_messages must be "side_a" or "side_b"`);
  }
  const max = resumable.maxInstances;
  if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
    throw new DefinitionError(`${where}: resumable.maxInstances must be a positive integer`);
  }
  const communication = resumable.parentCommunication;
  if (communication !== undefined && communication !== 'implicit' && communication !== 'explicit') {
    throw new DefinitionError(`${where}: resumable.parentCommunication must be "implicit" or "explicit"`);
  }
}

export function checkSubagentToolConfig(prompt: string, config: SubagentToolConfig): SubagentToolConfig {
  const where = `definePrompt "${prompt}": subagent tool "${config.name}"`;
  if (!config.name?.trim())
    throw new DefinitionError(`definePrompt "${prompt}": a subagent tool needs the agent's name`);
  checkImmediate(where, config.immediate);
  checkResumable(where, config.resumable);
  const wait = config.waitTimeout;
  if (wait !== undefined && !(Number.isInteger(wait) && wait > 0 && wait <= MAX_TOOL_TIMEOUT_MS)) {
    throw new DefinitionError(
      `${where}: waitTimeout must be a whole number of milliseconds from 1 to ${MAX_TOOL_TIMEOUT_MS}`,
    );
  }
  // SUB-4: a resumable subagent is reached through subagent_create / subagent_message, never directly.
  if (config.resumable && config.immediate) {
    throw new DefinitionError(`${where}: a subagent is either immediate or resumable`);
  }
  checkInitProperties(where, [
    config.initUserMessageProperty,
    config.initAttachmentsProperty,
    config.initAgentNameProperty,
  ]);
  return { ...config };
}

export interface SubpromptConfig {
  /** The prompt's name (a `definePrompt` with `exposeAsTool: true`, or listed with this config). */
  name: string;
  /** Whether the sub-prompt's final text answer is returned. Default true. */
  includeTextResponse?: boolean;
  /** Whether the sub-prompt's tool calls are returned, each with its arguments and result. Default false. */
  includeToolCalls?: boolean;
  /** Whether failed tool calls and the sub-prompt's own failure are reported in detail. Default true. */
  includeErrors?: boolean;
  /** The argument whose text becomes the sub-prompt's user message. Default `message`. */
  initUserMessageProperty?: string;
  /** An argument carrying paths of this thread's files attached to that user message. */
  initAttachmentsProperty?: string;
}

/** Keys only a SubpromptConfig has: a config with one of them names a prompt. */
export const SUBPROMPT_ONLY_KEYS = ['includeTextResponse', 'includeToolCalls', 'includeErrors'] as const;

export function checkSubpromptConfig(prompt: string, config: SubpromptConfig): SubpromptConfig {
  if (!config.name?.trim())
    throw new DefinitionError(`definePrompt "${prompt}": a prompt tool needs the prompt's name`);
  checkInitProperties(`definePrompt "${prompt}": prompt tool "${config.name}"`, [
    config.initUserMessageProperty,
    config.initAttachmentsProperty,
  ]);
  return { ...config };
}
