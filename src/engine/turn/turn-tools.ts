/**
 * The tools of one side's turn: the prompt's own, fixed for the turn, and those a thread learns at
 * run time from the MCP servers the agent and prompt declare (LOCK-4). The latter are asked for
 * before the turn's first call and before each model step, so a server connected by a call (its
 * `__connect` tool) offers its tools at the next step. With no server declared nothing changes
 * between steps and nothing is asked for: no cost on the hot path. What a step offers of them (the
 * system text that names them, the request's tool list) is kept here and changes with them.
 */
import type { McpServerConfig, PromptDefinition } from '../../spec/index.js';
import type { TurnDeps } from '../conversation/index.js';
import type { GuardSetup } from '../guards/index.js';
import { effectiveCapabilities } from '../permissions/index.js';
import type { ModelTool, ThreadStore } from '../ports/index.js';
import { mcpServersOf, type ResolvedTool, TOOL_SEARCH, withLoadedToolLimit } from '../registry/index.js';
import { modelTools, offerChanges, offeredTools, systemText } from '../request/index.js';
import { subagentInstances } from '../subagents/index.js';

/** A tool with the prompt's own untrustedOutput setting for it, when the prompt has one. */
function withUntrustedSetting(tool: ResolvedTool, setting: boolean | undefined): ResolvedTool {
  if (setting === undefined || setting === (tool.definition.untrustedOutput ?? false)) return tool;
  return { ...tool, definition: { ...tool.definition, untrustedOutput: setting } };
}

export class TurnTools {
  readonly map: Map<string, ResolvedTool>;
  /** The prompt's system text, naming the tools it offers (skills, deferred tools, run_code's). */
  system = '';
  private current: readonly ResolvedTool[];
  private connectedNames = '';
  private readonly servers: Record<string, McpServerConfig>;
  private readonly baseCapabilities: GuardSetup['capabilities'];
  private offerChangesByStep = false;
  private allRequestTools: ModelTool[] = [];

  constructor(
    private readonly fixed: readonly ResolvedTool[],
    private readonly deps: TurnDeps,
    private readonly setup: GuardSetup,
    private readonly prompt: PromptDefinition,
  ) {
    this.current = this.asOffered(fixed);
    this.map = new Map(this.current.map((tool) => [tool.name, tool]));
    this.servers = deps.host.connectedTools ? mcpServersOf(setup.agent, prompt) : {};
    this.baseCapabilities = setup.capabilities;
    this.offerUpdated();
  }

  /** The tools offered to the model; `map` holds these and the hidden ones a pending call may name. */
  get list(): readonly ResolvedTool[] {
    return this.current;
  }

  /** Whether the tools can change between steps. */
  get dynamic(): boolean {
    return Object.keys(this.servers).length > 0;
  }

  /**
   * The tools a step sends (KIND-8, SUB-4): deferred and lifecycle tools once they apply. Otherwise
   * the list is fixed for the turn: no store read on the hot path.
   */
  requestTools(store: ThreadStore): ModelTool[] {
    if (!this.offerChangesByStep) return this.allRequestTools;
    return modelTools(offeredTools(this.current, store, Object.keys(subagentInstances(store)).length > 0));
  }

  /**
   * The tools as this prompt offers them: its per-tool untrustedOutput settings applied (INJ-1), and
   * past its limit, tools waiting behind tool_search (DEFER-1, registry/loaded-tool-limit.ts).
   */
  private asOffered(tools: readonly ResolvedTool[]): ResolvedTool[] {
    const { registry } = this.deps;
    const limit = this.prompt.maxLoadedTools ?? Number.POSITIVE_INFINITY;
    const marked = tools.map((tool) => withUntrustedSetting(tool, this.prompt.untrustedOutput?.[tool.name]));
    return withLoadedToolLimit(marked, limit, registry.builtinNames, registry.resolvedTool(TOOL_SEARCH));
  }

  private offerUpdated(): void {
    this.system = systemText(this.prompt, this.current, this.deps.registry.skills);
    this.offerChangesByStep = offerChanges(this.current);
    this.allRequestTools = modelTools(this.current);
  }

  /** Asks for the connected tools again; true when the set changed. */
  async refresh(): Promise<boolean> {
    const { host, signal } = this.deps;
    if (!host.connectedTools || !this.dynamic) return false;
    const connected = await host.connectedTools(this.servers, signal);
    const names = connected.map((tool) => tool.name).join('\n');
    if (names === this.connectedNames) return false;
    this.connectedNames = names;
    // A name the prompt already offers keeps its own tool: a server cannot shadow it.
    const added = connected.filter((tool) => !this.fixed.some((own) => own.name === tool.name));
    this.current = this.asOffered([...this.fixed, ...added.filter((tool) => !tool.hidden)]);
    this.map.clear();
    for (const tool of added) this.map.set(tool.name, tool);
    for (const tool of this.current) this.map.set(tool.name, tool);
    // LOCK-5: a declared server's host is part of what the agent may reach.
    const hosts = added.flatMap((tool) => tool.definition.requires.net?.hosts ?? []);
    this.setup.capabilities = effectiveCapabilities(
      [this.baseCapabilities.set, { net: { hosts } }],
      `agent "${this.setup.agent.name}"`,
    );
    this.offerUpdated();
    return true;
  }
}
