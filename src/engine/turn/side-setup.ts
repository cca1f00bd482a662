/**
 * What stays the same through one side's turn (DEF-6): its side config, prompt and model, the
 * guards every call passes, the tools it offers (prompt tools bound to run nested, SUB-1), the
 * state each call receives, and the run its model steps belong to (step/).
 */
import type { PromptDefinition, SideConfig } from '../../spec/index.js';
import { flagOn, MAX_STEPS_CEILING, type Side, stepsThisTurn, type TurnDeps, turnIdOf } from '../conversation/index.js';
import type { ToolGuard } from '../execute/index.js';
import {
  approvalGuard,
  callStates,
  type GuardSetup,
  hookExecution,
  hookRunner,
  type StateFactory,
  toolGuards,
} from '../guards/index.js';
import type { HookRunner } from '../hooks/index.js';
import { fileReading, inMainConversation, MessageFiles, requestSettings, ToolImages } from '../request/index.js';
import type { StepRun } from '../step/index.js';
import { bindSubprompts } from '../subagents/index.js';
import { TurnTools } from './turn-tools.js';

export interface SideTurn {
  deps: TurnDeps;
  sideName: Side;
  side: SideConfig;
  prompt: PromptDefinition;
  maxSteps: number;
  guardSetup: GuardSetup;
  guards: readonly ToolGuard[];
  tools: TurnTools;
  createState: StateFactory;
  /** EXE-9: a multimodal model is sent the images tools returned in this turn; null otherwise. */
  images: ToolImages | null;
  /** MSG-10: the files of users' messages, loaded once a turn as this model reads them. */
  messageFiles: MessageFiles;
  anyImmediate: boolean;
  run: StepRun;
  /** The prompt's hooks (HOOK-2), or the agent's; null when none runs. */
  hooks: HookRunner | null;
}

export async function setUpSide(deps: TurnDeps, states: StateFactory, sideName: Side): Promise<SideTurn> {
  const { store, registry, agent } = deps;
  const side = sideName === 'b' && agent.sideB ? agent.sideB : agent.sideA;
  const prompt = registry.prompt(side.prompt);
  const model = registry.model(prompt.model);
  const guardSetup: GuardSetup = {
    agent,
    capabilities: registry.capabilitiesFor(agent),
    projectRules: registry.projectRules,
    projectWatchdog: registry.projectWatchdog,
    store,
  };
  const guards = [...toolGuards(guardSetup), ...(deps.guards ?? []), approvalGuard(store)];
  // SUB-3 `optional`: a tool behind a flag exists for this thread only when the flag is on.
  // SUB-1: prompt tools run nested in this thread, under the same guards.
  // LOCK-4: the tools of the prompt's MCP servers join the prompt's own, as the thread knows them.
  const offered = registry.toolsFor(prompt.name).filter((tool) => flagOn(deps.variables.values, tool.enabledBy));
  const nested = { deps: { ...deps, promptPath: [prompt.name] }, guards, setup: guardSetup, states };
  const tools = new TurnTools(bindSubprompts(offered, nested), deps, guardSetup, prompt);
  await tools.refresh();
  // HOOK-2: the prompt's hooks, else the agent's; they see this side's execution (HOOK-4).
  const hooks = hookRunner(
    deps,
    prompt,
    hookExecution(
      deps.signal,
      sideName,
      () => stepsThisTurn(store.messages()),
      deps.flow ? { flow: deps.flow, promptPath: [prompt.name], history: () => store.messages() } : undefined,
    ),
  );
  return {
    deps,
    sideName,
    side,
    prompt,
    maxSteps: Math.min(side.maxSteps ?? MAX_STEPS_CEILING, MAX_STEPS_CEILING),
    guardSetup,
    guards,
    tools,
    // KIND-6 and containment: each call's state carries its tool context and its access gate.
    createState: callStates({
      createState: states,
      setup: guardSetup,
      store,
      emit: deps.emit,
      tools: tools.map,
      childAgents: registry.childAgentsOf(prompt.name, agent.name),
      hooks,
    }),
    hooks,
    images: model.vision ? new ToolImages(deps.files) : null,
    messageFiles: new MessageFiles(deps.files, fileReading(model)),
    anyImmediate: tools.list.some((tool) => tool.immediate),
    run: {
      deps,
      conversation: { store, depth: 0, shown: inMainConversation, history: (own) => own, turnId: turnIdOf },
      prompt,
      model,
      provider: deps.provider(model),
      settings: requestSettings(model, prompt),
      hooks,
      ...(agent.type === 'dual_ai'
        ? { side: { name: sideName, ...(side.stopTool ? { stopTool: side.stopTool } : {}) } }
        : {}),
    },
  };
}
