/**
 * The registry's shapes (DEF-4, SUB-1 to SUB-4): what an application hands the runtime, a tool as a
 * prompt offers it, and the factories the tools layer provides for agent and lifecycle tools.
 */
import type {
  AgentDefinition,
  AnyHookDefinition,
  AnyToolDefinition,
  EffectDefinition,
  JsonSchema,
  ModelDefinition,
  PermissionRule,
  PromptDefinition,
  SkillDefinition,
  SubagentToolConfig,
  SubpromptConfig,
  ThreadEndpointDefinition,
  Watchdog,
} from '../../spec/index.js';
import type { RuntimeLimits } from './runtime-limits.js';

export type Named<T> = readonly T[] | Readonly<Record<string, T>>;

/** What an application hands the runtime. */
export interface AppDefinitions {
  /** Function tools keyed by the name the model calls them by. */
  tools?: Readonly<Record<string, AnyToolDefinition>>;
  prompts?: Named<PromptDefinition>;
  agents?: Named<AgentDefinition>;
  models?: Named<ModelDefinition>;
  /**
   * Project-scope permission rules (PERM-1), beside each agent's manifest rules and each thread's
   * session rules. A call no rule covers asks (denied at once on a headless thread).
   */
  permissions?: readonly PermissionRule[];
  /** A pre-execute hook on every call of every agent (PERM-3). */
  watchdog?: Watchdog;
  /** Skills the `skill` tool loads on demand (LOCK-4). */
  skills?: readonly SkillDefinition[];
  /** What one thread may hold: its files' total size and its inbox (ATT-6, THR-8; runtime-limits.ts). */
  limits?: RuntimeLimits;
  /**
   * Thread endpoints (`defineThreadEndpoint`), keyed by the path of their file under `agents/api/`
   * without `.ts`: `summary`, `export.post`, `notes/[id]`, `docs/[*]` (EP-1). Served beneath
   * `/api/threads/:id/`.
   */
  endpoints?: Readonly<Record<string, ThreadEndpointDefinition>>;
  /**
   * How often a tool call still running says so, in milliseconds (BEAT-1; tool-heartbeat.ts): a
   * `tool_running` frame and a log line. Default 30 000.
   */
  toolHeartbeatMs?: number;
  /**
   * Hooks (`defineHook`), each run only where a prompt or an agent names its id in `hooks`; ids are
   * unique across the application (HOOK-1 to HOOK-3).
   */
  hooks?: readonly AnyHookDefinition[];
  /** How long one hook may run before it is skipped, in milliseconds (HOOK-5). Default 10 000. */
  hookTimeoutMs?: number;
  /**
   * Effects keyed by name (the Effects chapter): the file name under `agents/effects/`, snake_case,
   * or `{package}/{effect}` for a package's effects.
   */
  effects?: Readonly<Record<string, EffectDefinition>>;
}

/** SUB-3: how the runtime fills in an immediate call's arguments. */
export interface ImmediateStart {
  nameEnv?: string;
  descriptionEnv?: string;
  /** The argument carrying the child's first message. */
  messageProperty: string;
  /** The argument carrying the instance's name, when the config has one. */
  nameProperty?: string;
}

/** A tool as one prompt offers it to the model. */
export interface ResolvedTool {
  name: string;
  definition: AnyToolDefinition;
  parameters: JsonSchema;
  /** Offered only when this thread variable is true, 1 or yes (SUB-3 `optional`). */
  enabledBy?: string;
  /** A prompt offered as a tool (SUB-1): the loop runs it nested in the calling thread. */
  subprompt?: { prompt: PromptDefinition; config: SubpromptConfig };
  /** An immediate subagent (SUB-3): the runtime calls it before the prompt's first model step. */
  immediate?: ImmediateStart;
  /** Offered only once the thread has a resumable subagent instance (SUB-4 `subagent_message`). */
  needsInstances?: boolean;
  /** Not offered to the model, yet a call already made to it still runs (an MCP server's connect tool once connected). */
  hidden?: boolean;
}

/** An agent a prompt offers as a resumable subagent (SUB-4), reached through the lifecycle tools. */
export interface ResumableSubagent {
  agent: AgentDefinition;
  config: SubagentToolConfig & { resumable: Exclude<SubagentToolConfig['resumable'], false | undefined> };
}

/**
 * Builds the lifecycle tools `subagent_create` and `subagent_message` for a prompt's resumable
 * subagents (SUB-4); the tools layer provides it. `needsInstances` marks the tools offered only once
 * an instance exists.
 */
export type LifecycleToolFactory = (
  subagents: readonly ResumableSubagent[],
) => Array<{ name: string; definition: AnyToolDefinition; needsInstances?: boolean }>;

/**
 * Builds the tool that offers an agent to a prompt (SUB-2); the tools layer provides it. Listed by
 * name alone, an ai_human agent is a handoff; with a SubagentToolConfig it runs as a subagent.
 */
export type AgentToolFactory = (agent: AgentDefinition, config: SubagentToolConfig | undefined) => AnyToolDefinition;
