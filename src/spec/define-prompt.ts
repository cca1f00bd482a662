/**
 * `definePrompt` (DEF-6): a system prompt, the model it runs on, the tools it may call and how many
 * rounds of tool calls a turn may run (KIND-7).
 */
import type { z } from 'zod';
import { hookIds } from './define-hook.js';
import { type ModelSettings, modelSettingsProblem } from './define-model.js';
import { DefinitionError } from './definition-error.js';
import { checkMcpServers, type McpServerConfig } from './mcp-servers.js';
import {
  checkSubagentToolConfig,
  checkSubpromptConfig,
  SUBAGENT_ONLY_KEYS,
  SUBPROMPT_ONLY_KEYS,
  type SubagentToolConfig,
  type SubpromptConfig,
} from './tool-configs.js';
import type { VariableDefinition } from './types/index.js';
import { secretDefaultProblem, variablesFromTenvs } from './variables.js';

/** A call the model asked for, as `maxToolRounds` sees it. */
export interface TurnToolCall {
  id: string;
  name: string;
  /** The parsed arguments; the raw text when it is not valid JSON. */
  arguments: unknown;
}

/**
 * What a `maxToolRounds` function is asked with (KIND-7), before each round. A turn starts at the
 * newest user message; a round is the execution of one model step's tool calls.
 */
export interface TurnContext {
  threadId: string;
  /** Rounds already run in this turn: 0 before the first. */
  round: number;
  /** Model steps in this turn, counting the one whose calls are about to run. */
  stepCount: number;
  /** The calls of that step. */
  toolCalls: readonly TurnToolCall[];
}

/**
 * At most this many rounds per turn, or a function that allows (true) or refuses (false) each round.
 * A refused round's calls are not executed: the turn ends with them pending.
 */
export type MaxToolRounds = number | ((turn: TurnContext) => boolean | Promise<boolean>);

export interface PromptDefinition {
  name: string;
  /** How the prompt describes itself when exposed as a tool. */
  toolDescription: string;
  /** The system prompt. */
  prompt: string;
  /** Name of a model from defineModel. */
  model: string;
  /** Names of the tools this prompt may call: function tools, built-ins, or agents offered as tools. */
  tools: string[];
  /**
   * How agents (SUB-3) and prompts (SUB-1) among `tools` are offered; one listed by name alone gets
   * the defaults. Whether a config names an agent or a prompt is settled when the app is assembled.
   */
  toolConfigs: ToolConfig[];
  /** Whether earlier conversation is sent to the model. Default true. */
  includeChat: boolean;
  /** Whether tool calls and results of earlier turns are sent. Default true. */
  includePastTools: boolean;
  parallelToolCalls: boolean | undefined;
  toolChoice: 'auto' | 'none' | 'required' | undefined;
  requiredSchema: z.ZodObject | undefined;
  variables: VariableDefinition[];
  exposeAsTool: boolean;
  /** Unlimited when undefined (the side's step limits still apply). */
  maxToolRounds: MaxToolRounds | undefined;
  /** Settings over the model's own for this prompt's requests (THR-4). */
  modelSettings: ModelSettings | undefined;
  /** MCP servers whose tools this prompt offers as `<server>__<tool>` (LOCK-4). */
  mcpServers: Record<string, McpServerConfig>;
  /**
   * DEFER-1: at most this many tools are sent with their schemas; the rest wait behind `tool_search`
   * (default `DEFAULT_MAX_LOADED_TOOLS`).
   */
  maxLoadedTools: number;
  /** INJ-1: per tool name, whether its output is marked as outside data (over the tool's own setting). */
  untrustedOutput: Readonly<Record<string, boolean>>;
  /** HOOK-2: the ids of the hooks that run while this prompt is active; empty: the agent's run. */
  hooks: readonly string[];
}

/** DEFER-1: how many tools a prompt sends with their schemas before the rest are deferred. */
export const DEFAULT_MAX_LOADED_TOOLS = 40;

export interface DefinePromptOptions {
  name: string;
  toolDescription?: string;
  prompt: string;
  model: string;
  tools?: Array<string | ToolConfig>;
  includeChat?: boolean;
  includePastTools?: boolean;
  parallelToolCalls?: boolean;
  toolChoice?: 'auto' | 'none' | 'required';
  requiredSchema?: z.ZodObject;
  variables?: VariableDefinition[];
  tenvs?: z.ZodObject;
  exposeAsTool?: boolean;
  /**
   * KIND-7: a number N runs at most N rounds of tool calls per turn (0: none, the model's calls are
   * returned unexecuted); a function is asked before each round and ends the turn when it returns
   * false. Calls left by the limit stay pending until the next user message, which answers them
   * with an error tool message before the model is called.
   */
  maxToolRounds?: MaxToolRounds;
  /** Settings over the model's own (temperature, maxOutputTokens, ..., responseFormat) for this prompt. */
  modelSettings?: ModelSettings;
  /** MCP servers whose tools this prompt offers, keyed by the prefix of their tools' names (LOCK-4). */
  mcpServers?: Record<string, McpServerConfig>;
  /**
   * When the prompt offers more tools than this (its MCP servers' included), the rest are offered by
   * name only until `tool_search` loads them, as if marked `deferred`. Default 40.
   */
  maxLoadedTools?: number;
  /**
   * Per tool name: `true` marks the tool's output as outside data (delimited, with a notice that it
   * is not instructions), `false` stops marking it. Over the tool's own `untrustedOutput`; web_fetch,
   * web_search and MCP servers' tools are marked unless turned off here.
   */
  untrustedOutput?: Record<string, boolean>;
  /**
   * Ids of hooks (`defineHook`) to run while this prompt is active, in this order. When a prompt
   * names none, the agent's `hooks` run; a hook no prompt or agent names never runs.
   */
  hooks?: string[];
}

/** A prompt's entry for an agent (SubagentToolConfig) or a prompt (SubpromptConfig) offered as a tool. */
export type ToolConfig = SubagentToolConfig | SubpromptConfig;

/** Whether a config can only be a SubpromptConfig. */
export function isSubpromptConfig(config: ToolConfig): config is SubpromptConfig {
  return SUBPROMPT_ONLY_KEYS.some((key) => key in config);
}

function checkToolConfig(prompt: string, config: ToolConfig): ToolConfig {
  const agentKeys = SUBAGENT_ONLY_KEYS.filter((key) => key in config);
  if (!isSubpromptConfig(config)) return checkSubagentToolConfig(prompt, config);
  if (agentKeys.length > 0) {
    throw new DefinitionError(
      `definePrompt "${prompt}": tool "${config.name}" mixes prompt tool options with subagent options (${agentKeys.join(', ')})`,
    );
  }
  return checkSubpromptConfig(prompt, config);
}

export function definePrompt(options: DefinePromptOptions): PromptDefinition {
  if (!options.name?.trim()) throw new DefinitionError('definePrompt: name must be a non-empty string');
  if (typeof options.prompt !== 'string') {
    throw new DefinitionError(`definePrompt "${options.name}": prompt must be a string`);
  }
  if (!options.model?.trim()) {
    throw new DefinitionError(`definePrompt "${options.name}": model must name a defineModel model`);
  }
  const secretDefault = secretDefaultProblem(options.variables ?? []);
  if (secretDefault) throw new DefinitionError(`definePrompt "${options.name}": ${secretDefault}`);
  const rounds = options.maxToolRounds;
  if (rounds !== undefined && typeof rounds !== 'function' && !(Number.isInteger(rounds) && rounds >= 0)) {
    throw new DefinitionError(
      `definePrompt "${options.name}": maxToolRounds must be a non-negative integer or a function`,
    );
  }
  const maxLoaded = options.maxLoadedTools ?? DEFAULT_MAX_LOADED_TOOLS;
  if (!(Number.isInteger(maxLoaded) && maxLoaded >= 1)) {
    throw new DefinitionError(`definePrompt "${options.name}": maxLoadedTools must be a positive integer`);
  }
  const settingsProblem = modelSettingsProblem(options.modelSettings, `definePrompt "${options.name}"`);
  if (settingsProblem) throw new DefinitionError(settingsProblem);
  return {
    name: options.name,
    toolDescription: options.toolDescription ?? '',
    prompt: options.prompt,
    model: options.model,
    tools: (options.tools ?? []).map((tool) => (typeof tool === 'string' ? tool : tool.name)),
    toolConfigs: (options.tools ?? [])
      .filter((tool): tool is ToolConfig => typeof tool !== 'string')
      .map((config) => checkToolConfig(options.name, config)),
    includeChat: options.includeChat ?? true,
    includePastTools: options.includePastTools ?? true,
    parallelToolCalls: options.parallelToolCalls,
    toolChoice: options.toolChoice,
    requiredSchema: options.requiredSchema,
    variables: [...(options.variables ?? []), ...variablesFromTenvs(options.tenvs)],
    exposeAsTool: options.exposeAsTool ?? false,
    maxToolRounds: rounds,
    modelSettings: options.modelSettings,
    mcpServers: checkMcpServers(`definePrompt "${options.name}"`, options.mcpServers),
    maxLoadedTools: maxLoaded,
    untrustedOutput: { ...(options.untrustedOutput ?? {}) },
    hooks: hookIds(`definePrompt "${options.name}"`, options.hooks),
  };
}
