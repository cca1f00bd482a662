/**
 * `defineAgent` (DEF-6): who talks in a thread. An `ai_human` agent is a model (side A) talking with a
 * person; a `dual_ai` agent is two models (sides A and B) talking with each other, each seeing itself
 * as the assistant and the other as the user. Each side runs a prompt and ends its turn on the
 * conditions of its side config; in a `dual_ai` thread the other side then answers, until a side's
 * stop tool or `maxSessionTurns` ends the session.
 */
import type { z } from 'zod';
import { type AgentSchedule, checkAgentSchedules } from './agent-schedules.js';
import { hookIds } from './define-hook.js';
import { DefinitionError } from './definition-error.js';
import { checkMcpServers, type McpServerConfig } from './mcp-servers.js';
import {
  isOnBusy,
  ON_BUSY_VALUES,
  type OnBusy,
  type PermissionRule,
  type RequirementSet,
  type VariableDefinition,
  type Watchdog,
} from './types/index.js';
import { secretDefaultProblem, variablesFromTenvs } from './variables.js';

export interface SideConfig {
  /** Name of a prompt from definePrompt. */
  prompt: string;
  /** End the side's turn when the model answers without tool calls. Default true. */
  stopOnResponse: boolean;
  /** End the side's turn once this tool has been called; in a `dual_ai` thread, the whole session. */
  stopTool: string | undefined;
  /**
   * With stopTool: the property that becomes the session's answer (what a parent thread receives),
   * read from the stop tool's arguments or else its JSON result.
   */
  stopToolResponseProperty: string | undefined;
  /** Model steps allowed in one turn of this side (EXE-7). */
  maxSteps: number | undefined;
}

export type SideConfigInput = Pick<SideConfig, 'prompt'> & Partial<Omit<SideConfig, 'prompt'>>;

export interface AgentDefinition {
  name: string;
  type: 'ai_human' | 'dual_ai';
  title: string;
  sideA: SideConfig;
  sideB: SideConfig | undefined;
  /** `dual_ai`: side turns per session, A's and B's together (EXE-7); at most 50. */
  maxSessionTurns: number | undefined;
  exposeAsTool: boolean;
  toolDescription: string;
  variables: VariableDefinition[];
  /** The agent's manifest: capabilities beyond its tools' (LOCK-5). */
  requires: RequirementSet;
  /** Manifest-scope permission rules (PERM-1): a manifest deny is final. */
  permissions: PermissionRule[];
  /** A pre-execute hook on every call of this agent (PERM-3). */
  watchdog: Watchdog | undefined;
  /** The most a thread of this agent may spend on models (THR-4); a thread's own budget can be tighter. */
  budget: AgentBudget | undefined;
  /** What a message posted while a thread of this agent is busy does, unless it says (`enqueue` by default). */
  onBusy: OnBusy;
  /** MCP servers whose tools every prompt of the agent's sides offers (LOCK-4); a prompt's own server of the same name wins. */
  mcpServers: Record<string, McpServerConfig>;
  /** HOOK-2: the ids of the hooks that run for prompts of this agent that name none of their own. */
  hooks: readonly string[];
  /** Messages posted to each thread of the agent on a cron expression or once (with their defaults). */
  schedules: readonly AgentSchedule[];
}

/** Model spending limits of a thread: tokens (input and output together) and US dollars. */
export interface AgentBudget {
  maxTokens?: number;
  /** Needs models that declare `prices`. */
  maxCost?: number;
}

export interface DefineAgentOptions {
  name: string;
  type?: 'ai_human' | 'dual_ai';
  title?: string;
  sideA: SideConfigInput;
  sideB?: SideConfigInput;
  maxSessionTurns?: number;
  exposeAsTool?: boolean;
  toolDescription?: string;
  variables?: VariableDefinition[];
  tenvs?: z.ZodObject;
  requires?: RequirementSet;
  permissions?: PermissionRule[];
  watchdog?: Watchdog;
  budget?: AgentBudget;
  /** What a message posted while a turn runs does when it does not say: `enqueue` (the default), `reject`, `interrupt` or `rollback`. */
  onBusy?: OnBusy;
  mcpServers?: Record<string, McpServerConfig>;
  /** Ids of hooks (`defineHook`) to run, in this order, while a prompt that names none is active. */
  hooks?: string[];
  /** Messages posted to each new thread of the agent on a cron expression or once, e.g. a daily digest. */
  schedules?: AgentSchedule[];
}

function side(agent: string, label: string, input: SideConfigInput): SideConfig {
  if (!input?.prompt?.trim()) {
    throw new DefinitionError(`defineAgent "${agent}": ${label}.prompt must name a prompt`);
  }
  if (input.maxSteps !== undefined && !(Number.isInteger(input.maxSteps) && input.maxSteps > 0)) {
    throw new DefinitionError(`defineAgent "${agent}": ${label}.maxSteps must be a positive integer`);
  }
  if (input.stopToolResponseProperty !== undefined && !input.stopTool) {
    throw new DefinitionError(`defineAgent "${agent}": ${label}.stopToolResponseProperty needs a stopTool`);
  }
  return {
    prompt: input.prompt,
    stopOnResponse: input.stopOnResponse ?? true,
    stopTool: input.stopTool,
    stopToolResponseProperty: input.stopToolResponseProperty,
    maxSteps: input.maxSteps,
  };
}

export function defineAgent(options: DefineAgentOptions): AgentDefinition {
  if (!options.name?.trim()) throw new DefinitionError('defineAgent: name must be a non-empty string');
  const type = options.type ?? 'ai_human';
  if (type !== 'ai_human' && type !== 'dual_ai') {
    throw new DefinitionError(`defineAgent "${options.name}": type must be "ai_human" or "dual_ai"`);
  }
  if (type === 'dual_ai' && !options.sideB) {
    throw new DefinitionError(`defineAgent "${options.name}": a dual_ai agent needs sideB`);
  }
  const secretDefault = secretDefaultProblem(options.variables ?? []);
  if (secretDefault) throw new DefinitionError(`defineAgent "${options.name}": ${secretDefault}`);
  const budget = options.budget;
  if (budget && !Object.values(budget).every((limit) => typeof limit === 'number' && limit > 0)) {
    throw new DefinitionError(
      `defineAgent "${options.name}": budget.maxTokens and budget.maxCost must be positive numbers`,
    );
  }
  if (options.onBusy !== undefined && !isOnBusy(options.onBusy)) {
    throw new DefinitionError(`defineAgent "${options.name}": onBusy must be one of ${ON_BUSY_VALUES.join(', ')}`);
  }
  const turns = options.maxSessionTurns;
  if (turns !== undefined && !(Number.isInteger(turns) && turns > 0)) {
    throw new DefinitionError(`defineAgent "${options.name}": maxSessionTurns must be a positive integer`);
  }
  return {
    name: options.name,
    type,
    title: options.title ?? options.name,
    sideA: side(options.name, 'sideA', options.sideA),
    sideB: options.sideB ? side(options.name, 'sideB', options.sideB) : undefined,
    maxSessionTurns: options.maxSessionTurns,
    exposeAsTool: options.exposeAsTool ?? false,
    toolDescription: options.toolDescription ?? '',
    variables: [...(options.variables ?? []), ...variablesFromTenvs(options.tenvs)],
    requires: options.requires ?? {},
    permissions: options.permissions ?? [],
    watchdog: options.watchdog,
    budget: options.budget,
    onBusy: options.onBusy ?? 'enqueue',
    mcpServers: checkMcpServers(`defineAgent "${options.name}"`, options.mcpServers),
    hooks: hookIds(`defineAgent "${options.name}"`, options.hooks),
    schedules: checkAgentSchedules(`defineAgent "${options.name}"`, options.schedules),
  };
}
