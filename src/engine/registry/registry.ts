/**
 * The registry turns an application's definitions into what the runtime serves: it checks every
 * cross-reference once, at startup, so a typo fails the deploy instead of a conversation.
 */

import type { SkillDefinition, SubagentToolConfig } from '../../spec/index.js';
import {
  type AgentDefinition,
  type AnyHookDefinition,
  type AnyToolDefinition,
  argumentsJsonSchema,
  DefinitionError,
  type EffectDefinition,
  type McpServerConfig,
  type ModelDefinition,
  type PermissionRule,
  type PromptDefinition,
  type RequirementSet,
  type VariableDefinition,
  type Watchdog,
} from '../../spec/index.js';
import {
  deferredDefinitionError,
  isSubpromptConfig,
  mergeVariableDefinitions,
  secretDefaultProblem,
} from '../../spec/internal.js';
import {
  assertRequirementPatterns,
  assertRules,
  type EffectiveCapabilities,
  effectiveCapabilities,
} from '../permissions/index.js';
import { checkAgentScheduleTimings } from '../schedules/index.js';
import { registeredEffects } from './effect-names.js';
import { checkHookReferences, type HooksByPoint, hooksById, hookTimeout, resolveHooks } from './hook-registry.js';
import { agentMcpServers, checkMcpPlaceholders } from './mcp-declarations.js';
import { type ThreadLimits, threadLimits } from './runtime-limits.js';
import { subpromptTool } from './subprompt-tool.js';
import { type ThreadEndpoints, threadEndpoints } from './thread-endpoints.js';
import { toolHeartbeatInterval } from './tool-heartbeat.js';
import type {
  AgentToolFactory,
  AppDefinitions,
  LifecycleToolFactory,
  Named,
  ResolvedTool,
  ResumableSubagent,
} from './types.js';

/** Tool names should be snake_case and at most 64 characters; others are warned about (DEF-4). */
const TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const TOOL_NAME_MAX = 64;

/**
 * VAR-5 (seed 002 AlwaysLoad): the built-in that asks a human for a credential is offered, listed
 * or not, by every prompt of an agent with a secret variable: there it can store something.
 */
const SECRET_TOOL = 'store_secret';

function byName<T extends { name: string }>(kind: string, items: Named<T> | undefined): Map<string, T> {
  const map = new Map<string, T>();
  const list = Array.isArray(items) ? items : Object.values(items ?? {});
  for (const item of list as T[]) {
    if (map.has(item.name)) throw new DefinitionError(`duplicate ${kind} name "${item.name}"`);
    map.set(item.name, item);
  }
  return map;
}

export class Registry {
  readonly tools = new Map<string, AnyToolDefinition>();
  /** The runtime's built-in tools' names (DEFER-1: they keep their place first when tools are deferred). */
  readonly builtinNames: ReadonlySet<string>;
  readonly prompts: Map<string, PromptDefinition>;
  readonly agents: Map<string, AgentDefinition>;
  readonly models: Map<string, ModelDefinition>;
  readonly warnings: string[] = [];
  readonly projectRules: readonly PermissionRule[];
  readonly projectWatchdog: Watchdog | undefined;
  readonly skills: readonly SkillDefinition[];
  /** What one thread may hold (ATT-6, THR-8), defaults filled in. */
  readonly limits: ThreadLimits;
  /** How often a running call says it still runs (BEAT-1). */
  readonly toolHeartbeatMs: number;
  /** The application's hooks by id (HOOK-1), and how long one may run (HOOK-5). */
  readonly hooks: ReadonlyMap<string, AnyHookDefinition>;
  readonly hookTimeoutMs: number;
  private readonly hooksByContext = new Map<string, HooksByPoint>();
  /** The application's effects by name (the Effects chapter). */
  readonly effects: ReadonlyMap<string, EffectDefinition>;
  /** The application's thread endpoints, compiled into their route table (EP-1). */
  readonly endpoints: ThreadEndpoints;
  private readonly toolsByPrompt = new Map<string, ResolvedTool[]>();
  private readonly capabilitiesByAgent = new Map<string, EffectiveCapabilities>();
  /** Per agent: its tools that keep a context; asked at every turn's start, built once. */
  private readonly contextToolsByAgent = new Map<string, ReadonlyMap<string, ResolvedTool>>();
  /** Per prompt: the agents it offers (as agent tools or resumable subagents), which its tools may start. */
  private readonly agentsByPrompt = new Map<string, Set<string>>();

  constructor(
    definitions: AppDefinitions,
    builtinTools: Readonly<Record<string, AnyToolDefinition>> = {},
    private readonly agentTool?: AgentToolFactory,
    private readonly lifecycleTools?: LifecycleToolFactory,
  ) {
    this.builtinNames = new Set(Object.keys(builtinTools));
    for (const [name, tool] of [...Object.entries(builtinTools), ...Object.entries(definitions.tools ?? {})]) {
      if (this.tools.has(name)) throw new DefinitionError(`duplicate tool name "${name}"`);
      // Deferred only by the development Worker: its file could not say which key it is registered by.
      const deferred = deferredDefinitionError(tool);
      if (deferred) throw new DefinitionError(`tool "${name}" (tools.${name}): ${deferred.message}`);
      if (tool?.kind !== 'function') {
        throw new DefinitionError(`tool "${name}" is not a defineTool() definition`);
      }
      if (!TOOL_NAME_PATTERN.test(name) || name.length > TOOL_NAME_MAX) {
        this.warnings.push(`tool name "${name}" should be snake_case and 1 to ${TOOL_NAME_MAX} characters`);
      }
      this.tools.set(name, tool);
    }
    this.models = byName('model', definitions.models);
    this.prompts = byName('prompt', definitions.prompts);
    this.agents = byName('agent', definitions.agents);
    this.projectRules = definitions.permissions ?? [];
    assertRules(this.projectRules, 'the project permissions');
    this.projectWatchdog = definitions.watchdog;
    this.skills = definitions.skills ?? [];
    this.limits = threadLimits(definitions.limits);
    this.toolHeartbeatMs = toolHeartbeatInterval(definitions.toolHeartbeatMs);
    this.hooks = hooksById(definitions.hooks);
    this.hookTimeoutMs = hookTimeout(definitions.hookTimeoutMs);
    this.effects = registeredEffects(definitions.effects);
    this.endpoints = threadEndpoints(definitions.endpoints);
    this.checkReferences();
    checkHookReferences(this.hooks, this.prompts.values(), this.agents.values());
    this.offerSecretTool();
    for (const agent of this.agents.values()) {
      // VAR-3: a default merged onto a secret from another level must be long enough to be one.
      const problem = secretDefaultProblem(this.variablesFor(agent));
      if (problem) throw new DefinitionError(`agent "${agent.name}": ${problem}`);
      assertRules(agent.permissions, `agent "${agent.name}"`);
      this.capabilitiesByAgent.set(agent.name, this.buildCapabilities(agent));
      checkMcpPlaceholders(agent, this.mcpServersFor(agent), this.variablesFor(agent));
      checkAgentScheduleTimings(agent);
    }
    for (const warning of this.warnings) console.warn(`[standard-agents] ${warning}`);
  }

  private checkReferences(): void {
    for (const model of this.models.values()) {
      for (const fallback of model.fallbacks ?? []) {
        if (!this.models.has(fallback)) {
          throw new DefinitionError(`model "${model.name}" falls back to unknown model "${fallback}"`);
        }
      }
    }
    for (const prompt of this.prompts.values()) {
      if (!this.models.has(prompt.model)) {
        throw new DefinitionError(`prompt "${prompt.name}" uses unknown model "${prompt.model}"`);
      }
      const resumable = this.resumableSubagents(prompt);
      for (const entry of resumable) this.offersAgent(prompt, entry.agent.name);
      const resolved = prompt.tools
        .filter((name) => !resumable.some((entry) => entry.agent.name === name))
        .map((name): ResolvedTool => {
          const definition = this.tools.get(name);
          if (definition) return { name, definition, parameters: argumentsJsonSchema(definition.args ?? undefined) };
          return this.resolveOffered(prompt, name);
        });
      this.toolsByPrompt.set(prompt.name, [...resolved, ...this.lifecycleToolsFor(prompt, resumable)]);
    }
    for (const agent of this.agents.values()) {
      for (const side of [agent.sideA, agent.sideB]) {
        if (side && !this.prompts.has(side.prompt)) {
          throw new DefinitionError(`agent "${agent.name}" uses unknown prompt "${side.prompt}"`);
        }
      }
    }
  }

  /**
   * An agent or a prompt listed among a prompt's tools (SUB-1, SUB-2). A config with prompt tool
   * options names a prompt; any other config an agent, or a prompt when no agent has that name.
   * Listed by name alone, the agent or prompt must be `exposeAsTool`.
   */
  private resolveOffered(prompt: PromptDefinition, name: string): ResolvedTool {
    const config = prompt.toolConfigs.find((candidate) => candidate.name === name);
    const agent = this.agents.get(name);
    const target = this.prompts.get(name);
    const where = `prompt "${prompt.name}"`;
    if (!agent && !target) throw new DefinitionError(`${where} lists unknown tool "${name}"`);
    if (config) {
      if (isSubpromptConfig(config) || !agent) {
        if (!target)
          throw new DefinitionError(`${where} configures "${name}" as a prompt tool, but no prompt has that name`);
        return subpromptTool(target, config);
      }
      return this.resolveAgentTool(prompt, agent, config);
    }
    if (agent?.exposeAsTool && target?.exposeAsTool) {
      throw new DefinitionError(`${where} lists "${name}", which is both an agent and a prompt offered as tools`);
    }
    if (target?.exposeAsTool) return subpromptTool(target, { name });
    if (!agent) throw new DefinitionError(`${where} lists prompt "${name}", which is not exposeAsTool`);
    return this.resolveAgentTool(prompt, agent, undefined);
  }

  /** The agents a prompt offers as resumable subagents (SUB-4). */
  private resumableSubagents(prompt: PromptDefinition): ResumableSubagent[] {
    const entries: ResumableSubagent[] = [];
    for (const config of prompt.toolConfigs) {
      if (isSubpromptConfig(config) || !config.resumable) continue;
      const agent = this.agents.get(config.name);
      if (!agent)
        throw new DefinitionError(`prompt "${prompt.name}" lists unknown agent "${config.name}" as resumable`);
      entries.push({ agent, config: { ...config, resumable: config.resumable } });
    }
    return entries;
  }

  /** SUB-4: the lifecycle tools injected into a prompt with resumable subagents, and only there. */
  private lifecycleToolsFor(prompt: PromptDefinition, resumable: readonly ResumableSubagent[]): ResolvedTool[] {
    if (resumable.length === 0) return [];
    if (!this.lifecycleTools) {
      throw new DefinitionError(`prompt "${prompt.name}": resumable subagents cannot be offered here`);
    }
    return this.lifecycleTools(resumable).map(({ name, definition, needsInstances }) => {
      if (prompt.tools.includes(name) || this.tools.has(name)) {
        throw new DefinitionError(`prompt "${prompt.name}": "${name}" is a runtime lifecycle tool name`);
      }
      return {
        name,
        definition,
        parameters: argumentsJsonSchema(definition.args ?? undefined),
        ...(needsInstances ? { needsInstances } : {}),
      };
    });
  }

  /** An agent listed among a prompt's tools, offered through its SubagentToolConfig (SUB-2, SUB-3). */
  private resolveAgentTool(
    prompt: PromptDefinition,
    agent: AgentDefinition,
    config: SubagentToolConfig | undefined,
  ): ResolvedTool {
    const name = agent.name;
    if (!config && !agent.exposeAsTool) {
      throw new DefinitionError(`prompt "${prompt.name}" lists agent "${name}", which is not exposeAsTool`);
    }
    if (!this.agentTool) throw new DefinitionError(`prompt "${prompt.name}": agents cannot be offered as tools here`);
    const definition = this.agentTool(agent, config);
    this.offersAgent(prompt, name);
    const immediate = config?.immediate;
    return {
      name,
      definition,
      parameters: argumentsJsonSchema(definition.args ?? undefined),
      ...(config?.optional ? { enabledBy: config.optional } : {}),
      ...(immediate
        ? {
            immediate: {
              ...(typeof immediate === 'object' ? immediate : {}),
              messageProperty: config.initUserMessageProperty ?? 'message',
              ...(config.initAgentNameProperty ? { nameProperty: config.initAgentNameProperty } : {}),
            },
          }
        : {}),
    };
  }

  private offersAgent(prompt: PromptDefinition, agent: string): void {
    const agents = this.agentsByPrompt.get(prompt.name) ?? new Set<string>();
    agents.add(agent);
    this.agentsByPrompt.set(prompt.name, agents);
  }

  /**
   * The agents a thread running `promptName` for `ownAgent` may start as child threads (SUB-2,
   * SUB-4, LOCK-1 `task`): its own agent, and those the prompt offers as agent tools or resumable
   * subagents. Nothing else, whatever name a model gives.
   */
  childAgentsOf(promptName: string, ownAgent: string): ReadonlySet<string> {
    return new Set([ownAgent, ...(this.agentsByPrompt.get(promptName) ?? [])]);
  }

  private offerSecretTool(): void {
    const definition = this.tools.get(SECRET_TOOL);
    if (!definition) return;
    const tool = { name: SECRET_TOOL, definition, parameters: argumentsJsonSchema(definition.args ?? undefined) };
    for (const agent of this.agents.values()) {
      if (!this.variablesFor(agent).some((variable) => variable.type === 'secret')) continue;
      for (const side of [agent.sideA, agent.sideB]) {
        const tools = side ? this.toolsByPrompt.get(side.prompt) : undefined;
        if (tools && !tools.some((listed) => listed.name === SECRET_TOOL)) tools.push(tool);
      }
    }
  }

  /** The agent's effective capability set: its manifest and every tool of its prompts (LOCK-5). */
  private buildCapabilities(agent: AgentDefinition): EffectiveCapabilities {
    const sets: RequirementSet[] = [agent.requires];
    assertRequirementPatterns(agent.requires, `agent "${agent.name}"`);
    for (const tool of this.reachableTools(agent)) {
      assertRequirementPatterns(tool.definition.requires, `tool "${tool.name}"`);
      sets.push(tool.definition.requires);
    }
    return effectiveCapabilities(sets, `agent "${agent.name}"`);
  }

  capabilitiesFor(agent: AgentDefinition): EffectiveCapabilities {
    return this.capabilitiesByAgent.get(agent.name) ?? this.buildCapabilities(agent);
  }

  agent(name: string): AgentDefinition | undefined {
    return this.agents.get(name);
  }

  prompt(name: string): PromptDefinition {
    const prompt = this.prompts.get(name);
    if (!prompt) throw new DefinitionError(`unknown prompt "${name}"`);
    return prompt;
  }

  model(name: string): ModelDefinition {
    const model = this.models.get(name);
    if (!model) throw new DefinitionError(`unknown model "${name}"`);
    return model;
  }

  /**
   * HOOK-2: the hooks that run while `prompt` is active in a thread of `agent`, by point (the
   * prompt's list, else the agent's), resolved once per pair.
   */
  hooksFor(prompt: PromptDefinition | undefined, agent: AgentDefinition | undefined): HooksByPoint {
    if (this.hooks.size === 0) return resolveHooks(this.hooks, undefined, undefined);
    const key = `${agent?.name ?? ''}\u0000${prompt?.name ?? ''}`;
    let resolved = this.hooksByContext.get(key);
    if (!resolved) {
      resolved = resolveHooks(this.hooks, prompt, agent);
      this.hooksByContext.set(key, resolved);
    }
    return resolved;
  }

  /** A registered tool as a prompt offers it when listed by name alone (DEFER-1: tool_search added). */
  resolvedTool(name: string): ResolvedTool | undefined {
    const definition = this.tools.get(name);
    return definition ? { name, definition, parameters: argumentsJsonSchema(definition.args ?? undefined) } : undefined;
  }

  toolsFor(promptName: string): readonly ResolvedTool[] {
    return this.toolsByPrompt.get(promptName) ?? [];
  }

  /** The prompts an agent's threads run: its sides' and, transitively, the prompts they offer as tools (SUB-1). */
  promptsOf(agent: AgentDefinition): PromptDefinition[] {
    const seen = new Map<string, PromptDefinition>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      const prompt = this.prompt(name);
      seen.set(name, prompt);
      for (const tool of this.toolsFor(name)) if (tool.subprompt) visit(tool.subprompt.prompt.name);
    };
    for (const side of [agent.sideA, agent.sideB]) if (side) visit(side.prompt);
    return [...seen.values()];
  }

  /** Every MCP server an agent's threads may use (LOCK-4), by name. */
  mcpServersFor(agent: AgentDefinition): Record<string, McpServerConfig> {
    return agentMcpServers(agent, this.promptsOf(agent));
  }

  /** The tools of an agent's threads that keep a context of their own (KIND-6, CTX-1), by name. */
  contextTools(agent: AgentDefinition): ReadonlyMap<string, ResolvedTool> {
    let tools = this.contextToolsByAgent.get(agent.name);
    if (!tools) {
      const kept = this.reachableTools(agent).filter((tool) => tool.definition.contextSchema);
      tools = new Map(kept.map((tool) => [tool.name, tool]));
      this.contextToolsByAgent.set(agent.name, tools);
    }
    return tools;
  }

  /** Every tool an agent's threads can run, nested prompt tools' included. */
  private reachableTools(agent: AgentDefinition): ResolvedTool[] {
    return this.promptsOf(agent).flatMap((prompt) => [...this.toolsFor(prompt.name)]);
  }

  /** Every variable an agent's threads need: its prompts', their tools' and its own (VAR-2). */
  variablesFor(agent: AgentDefinition): VariableDefinition[] {
    const lists: VariableDefinition[][] = [];
    for (const prompt of this.promptsOf(agent)) {
      for (const tool of this.toolsFor(prompt.name)) lists.push(tool.definition.variables);
      lists.push(prompt.variables);
    }
    lists.push(agent.variables);
    return mergeVariableDefinitions(...lists);
  }
}
