/**
 * The agent loop (docs/architecture.md, "How a turn flows"). One call runs a turn from whatever the
 * log says is next: pending tool calls are executed, queued messages delivered, the model called,
 * until the side's stop condition, a stop request or a step limit. Everything it decides comes from
 * the persisted log, so a restarted thread picks up exactly where it stopped (THR-3).
 *
 * Round limit (KIND-7): before a model step's calls are stored, the prompt's `maxToolRounds` decides
 * whether they may run. Refused calls are stored marked `metadata.round_limit` and the turn ends
 * with them pending; such a step is never executed, not by a restart nor by a later turn. The next
 * user message (posted, or queued and delivered) answers each of them with an error tool message
 * before the model is called, so the log stays well-formed for the Chat Completions protocol.
 */
import type { MaxToolRounds, Message, SideConfig, ToolCall, TurnContext } from '../../spec/index.js';
import type { Side, TurnDeps, TurnOutcome } from '../conversation/index.js';
import {
  buildModelMessages,
  cancelPendingCalls,
  flagOn,
  heldByRoundLimit,
  lastUserIndex,
  lastVisible,
  MAX_STEPS_CEILING,
  modelTools,
  offerChanges,
  offeredTools,
  pendingToolCalls,
  repeatedFailure,
  requestSettings,
  roundsThisTurn,
  stepsThisTurn,
  systemText,
  ToolImages,
  userAfter,
} from '../conversation/index.js';
import { executeToolCalls, parsedArguments } from '../execute/index.js';
import { approvalGuard, callStates, type GuardSetup, rememberAllowed, toolGuards } from '../guards/index.js';
import type { FrameSink, Provider, ThreadStore } from '../ports/index.js';
import { bindSubprompts, startImmediateSubagents, subagentInstances } from '../subagents/index.js';
import { accountStep, prepareRequest, type StepSetting } from './model-step.js';
import { abandonStreamedText, streamingEnded, streamingStarted } from './streamed-text.js';
import { TurnTools } from './turn-tools.js';

/** What the model is told about calls a round limit left unexecuted, once a new user message arrives. */
export const ROUND_LIMIT_MESSAGE = 'not executed: the round limit (maxToolRounds) was reached';

/**
 * What a stop tool's call answers (DEF-6): its `stopToolResponseProperty`, read from the call's
 * arguments or else from its JSON result; without the property, the result itself.
 */
function stopAnswer(call: ToolCall, log: readonly Message[], side: SideConfig): string {
  const result = log.find((message) => message.role === 'tool' && message.tool_call_id === call.id)?.content ?? '';
  const property = side.stopToolResponseProperty;
  if (!property) return result;
  for (const source of [call.function.arguments, result]) {
    const parsed = parsedArguments(source);
    if (typeof parsed === 'object' && parsed !== null && property in parsed) {
      const value = (parsed as Record<string, unknown>)[property];
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return result;
}

/** KIND-7: whether the prompt's `maxToolRounds` lets a step's calls run. */
async function roundAllowed(limit: MaxToolRounds | undefined, turn: TurnContext): Promise<boolean> {
  if (limit === undefined) return true;
  if (typeof limit === 'number') return turn.round < limit;
  return Boolean(await limit(turn));
}

/**
 * Appends the messages queued for delivery between steps (SUB-7), in arrival order; returns whether
 * it appended any. A message marked `after_turn` (a parent's message to a resumable subagent, SUB-4)
 * waits until the turn is over and then starts one of its own: each gets its own answer.
 */
export function deliverQueued(store: ThreadStore, emit: FrameSink, queue = store.drainQueue()): boolean {
  if (queue.length === 0) return false;
  const last = lastVisible(store.messages(), true);
  let idle = !last || last.role === 'assistant' || last.role === 'system';
  for (const [index, queued] of queue.entries()) {
    if (queued.metadata?.after_turn === true) {
      if (!idle) {
        // Sent back in the same order: nothing can be queued meanwhile, the store is synchronous.
        for (const rest of queue.slice(index)) store.enqueue(rest);
        return index > 0;
      }
      idle = false;
    }
    const message = store.append({
      id: queued.id,
      role: queued.role,
      content: queued.content,
      silent: queued.silent ?? false,
      metadata: queued.metadata ?? null,
    });
    emit({ type: 'message', message });
  }
  return queue.length > 0;
}

/**
 * One side's turn (DEF-6): `deps.store` is the log as that side sees it (see sides.ts). Runs until
 * the side's stop condition, a pause, a stop request or its step limit.
 */
export async function runSideTurn(deps: TurnDeps, sideName: Side = 'a'): Promise<TurnOutcome> {
  const { store, registry, agent, emit, signal } = deps;
  const now = deps.now ?? Date.now;
  const scrub = deps.scrub ?? ((text: string) => text);
  const side = sideName === 'b' && agent.sideB ? agent.sideB : agent.sideA;
  const prompt = registry.prompt(side.prompt);
  const model = registry.model(prompt.model);
  const provider = deps.provider(model);
  const maxSteps = Math.min(side.maxSteps ?? MAX_STEPS_CEILING, MAX_STEPS_CEILING);
  const guardSetup: GuardSetup = {
    agent,
    capabilities: registry.capabilitiesFor(agent),
    projectRules: registry.projectRules,
    projectWatchdog: registry.projectWatchdog,
    store,
  };
  const guards = [...toolGuards(guardSetup), ...(deps.guards ?? []), approvalGuard(store.info.id)];
  // SUB-3 `optional`: a tool behind a flag exists for this thread only when the flag is on.
  // SUB-1: prompt tools run nested in this thread, under the same guards.
  // LOCK-4: the tools of the prompt's MCP servers join the prompt's own, as the thread knows them.
  const turnTools = new TurnTools(
    bindSubprompts(
      registry.toolsFor(prompt.name).filter((tool) => flagOn(deps.variables, tool.enabledBy)),
      { deps, guards, setup: guardSetup },
    ),
    deps,
    guardSetup,
    prompt,
  );
  await turnTools.refresh();
  const toolMap = turnTools.map;
  // KIND-6 and containment: each call's state carries its tool context and its access gate.
  const createState = callStates({
    createState: deps.createState,
    setup: guardSetup,
    store,
    tools: toolMap,
    childAgents: registry.childAgentsOf(prompt.name, agent.name),
  });
  let system = systemText(prompt, turnTools.list, registry.skills);
  let offerChangesByStep = offerChanges(turnTools.list);
  const anyImmediate = turnTools.list.some((tool) => tool.immediate);
  let allRequestTools = modelTools(turnTools.list);
  // EXE-9: only a multimodal model is sent the images tools returned in this turn.
  const images = model.vision ? new ToolImages(deps.files) : null;
  let imageParts: Awaited<ReturnType<ToolImages['partsFor']>> | undefined;
  const step: StepSetting = {
    deps,
    prompt,
    model,
    provider,
    settings: requestSettings(model, prompt),
    render: (log) => buildModelMessages(prompt, log, imageParts, system),
  };
  // DEF-6: with stopOnResponse false, a side's text answer does not end its turn; the model goes on.
  let goOn = false;
  // THR-3: text a step streamed before a restart never became a message; clients drop it.
  abandonStreamedText(store, emit);

  for (;;) {
    if (signal.aborted) return { kind: 'stopped' };
    const log = store.messages();
    const pending = pendingToolCalls(log);
    const held = pending.length > 0 ? heldByRoundLimit(log) : undefined;
    if (held) {
      // KIND-7: held calls never run; a new user message answers them, then the model is called.
      // The answers go in first, so the log keeps each call next to its result.
      const queue = store.drainQueue();
      if (queue.length === 0 && !userAfter(store.messages(), held)) {
        return { kind: 'done', reason: 'round_limit', pendingToolCalls: pending };
      }
      cancelPendingCalls(store, emit, ROUND_LIMIT_MESSAGE);
      deliverQueued(store, emit, queue);
      continue;
    }
    if (pending.length > 0) {
      deps.onProgress?.();
      const executed = await executeToolCalls(pending, {
        tools: toolMap,
        store,
        files: deps.files,
        emit,
        guards,
        createState,
        signal,
        stepCount: stepsThisTurn(log),
        side: sideName,
        scrub,
        now,
        onAlwaysAllowed: (call) => rememberAllowed(guardSetup, call),
      });
      if (executed.waiting) return { kind: 'waiting' };
      if (store.info.agentId !== agent.name) {
        // SUB-2: a handoff to an agent that exists ends this turn; the new owner takes the next one.
        if (registry.agent(store.info.agentId)) return { kind: 'done', reason: 'handoff' };
        store.handoff(agent.name);
      }
      const stopCall = side.stopTool ? pending.find((call) => call.function.name === side.stopTool) : undefined;
      if (stopCall) {
        return { kind: 'done', reason: 'stop_tool', answer: stopAnswer(stopCall, store.messages(), side) };
      }
      const doomLoop = repeatedFailure(store.messages());
      if (doomLoop) return { kind: 'limit', message: doomLoop };
      continue;
    }
    deliverQueued(store, emit);
    const current = store.messages();
    // An ai_human turn ended by its stop tool is over: its marker comes after the tool result.
    const last = lastVisible(current, true);
    if (!last || (last.role === 'assistant' && !goOn) || last.role === 'system') {
      return { kind: 'done', reason: last ? 'response' : 'nothing_to_do' };
    }
    if (stepsThisTurn(current) >= maxSteps) {
      return { kind: 'limit', message: `The turn reached its limit of ${maxSteps} model steps.` };
    }

    // SUB-3: immediate subagents start before the prompt's first model step.
    if (anyImmediate && startImmediateSubagents(prompt.name, turnTools.list, store, deps.variables ?? {}, emit)) {
      continue;
    }
    deps.onProgress?.();
    if (turnTools.dynamic && (await turnTools.refresh())) {
      system = systemText(prompt, turnTools.list, registry.skills);
      offerChangesByStep = offerChanges(turnTools.list);
      allRequestTools = modelTools(turnTools.list);
    }
    // KIND-8, SUB-4: deferred and lifecycle tools are sent once they apply. Otherwise the list is
    // fixed for the turn: no store read on the hot path.
    const requestTools = offerChangesByStep
      ? modelTools(offeredTools(turnTools.list, store, Object.keys(subagentInstances(store)).length > 0))
      : allRequestTools;
    const turnMessages = current.slice(lastUserIndex(current) + 1);
    imageParts = images ? await images.partsFor(turnMessages) : undefined;
    // THR-4: within budget, and within the context window (compacting older turns when needed).
    const prepared = await prepareRequest(step, requestTools);
    if ('outcome' in prepared) return prepared.outcome;
    const messageId = crypto.randomUUID();
    let text = '';
    let response: Awaited<ReturnType<Provider['complete']>>;
    try {
      response = await provider.complete(
        {
          model: model.model ?? model.name,
          messages: prepared.messages,
          tools: requestTools,
          toolChoice: requestTools.length > 0 ? prompt.toolChoice : undefined,
          parallelToolCalls: requestTools.length > 0 ? prompt.parallelToolCalls : undefined,
          ...(step.settings ? { settings: step.settings } : {}),
          signal,
        },
        {
          onTextDelta(delta) {
            if (text === '') streamingStarted(store, messageId);
            text += delta;
            emit({ type: 'message_delta', message_id: messageId, delta });
          },
        },
      );
    } catch (error) {
      if (signal.aborted) {
        if (text !== '') {
          const partial = store.append({
            id: messageId,
            role: 'assistant',
            content: text,
            metadata: { aborted: true },
          });
          emit({ type: 'message', message: partial });
          streamingEnded(store);
        }
        return { kind: 'stopped' };
      }
      // The step failed after some text: it will never be this message.
      abandonStreamedText(store, emit);
      return { kind: 'failed', message: scrub((error as Error).message) };
    }
    // KIND-7: the decision is stored with the step, so a restart never runs refused calls.
    let roundRefused = false;
    let roundFailure: string | null = null;
    if (response.toolCalls.length > 0) {
      try {
        roundRefused = !(await roundAllowed(prompt.maxToolRounds, {
          threadId: store.info.id,
          round: roundsThisTurn(current),
          stepCount: stepsThisTurn(current) + 1,
          toolCalls: response.toolCalls.map((call) => ({
            id: call.id,
            name: call.function.name,
            arguments: parsedArguments(call.function.arguments),
          })),
        }));
      } catch (error) {
        roundRefused = true;
        roundFailure = scrub(`maxToolRounds of prompt "${prompt.name}" failed: ${(error as Error).message}`);
      }
    }
    const assistant = store.append({
      id: messageId,
      role: 'assistant',
      content: response.text === '' && response.toolCalls.length > 0 ? null : response.text,
      tool_calls: response.toolCalls.length > 0 ? response.toolCalls : null,
      metadata: {
        model: response.model,
        usage: response.usage,
        finish_reason: response.finishReason,
        ...(roundRefused ? { round_limit: true } : {}),
      },
    });
    emit({ type: 'message', message: assistant });
    if (text !== '') streamingEnded(store);
    const accounted = accountStep(step, response, assistant, current);
    if (accounted) return accounted;
    if (roundFailure) return { kind: 'failed', message: roundFailure };
    if (roundRefused) return { kind: 'done', reason: 'round_limit', pendingToolCalls: response.toolCalls };
    if (response.toolCalls.length === 0 && side.stopOnResponse) {
      return { kind: 'done', reason: 'response' };
    }
    goOn = response.toolCalls.length === 0;
  }
}
