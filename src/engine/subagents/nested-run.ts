/**
 * The loop of a prompt run nested in a thread (SUB-1): its pending calls through the same executor,
 * guards and journal as the caller's, then one model step at a time (step/), as a side's turn takes
 * them: the same budget, context window and compaction, round limit (KIND-7) and streamed-text
 * bookkeeping. Everything is read back from the run's messages at every step, so a thread
 * restarted mid-run resumes it instead of starting over (THR-3).
 */
import type { SubpromptConfig, ToolResult } from '../../spec/index.js';
import {
  heldByRoundLimit,
  MAX_STEPS_CEILING,
  pendingToolCalls,
  stepsThisTurn,
  type TurnDeps,
  type TurnOutcome,
} from '../conversation/index.js';
import { executeToolCalls, STOPPED_MESSAGE, type ToolGuard } from '../execute/index.js';
import type { GuardSetup, StateFactory } from '../guards/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { runModelStep, type StepRequest, type StepRun } from '../step/index.js';
import { subpromptResult } from './subprompt-result.js';

/** What nested runs share with the turn that started them. */
export interface NestedContext {
  deps: TurnDeps;
  guards: readonly ToolGuard[];
  /** The turn's rules and capabilities: nested calls are checked by them at run time too. */
  setup: GuardSetup;
  /** The turn's factory of call states, over the whole thread. */
  states: StateFactory;
}

/** One nested run: its prompt's tools and the run its steps belong to. */
export interface NestedRun {
  name: string;
  config: SubpromptConfig;
  /** The side the calling step belongs to (dual_ai). */
  side: 'a' | 'b';
  tools: ReadonlyMap<string, ResolvedTool>;
  guards: readonly ToolGuard[];
  createState: StateFactory;
  step: StepRun;
  request: StepRequest;
}

/** Runs the nested prompt to its answer, or to what ended it, as the call's result. */
export async function runNested(run: NestedRun): Promise<ToolResult> {
  const { deps, conversation } = run.step;
  const { store, depth } = conversation;
  for (;;) {
    if (deps.signal.aborted) return { status: 'error', error: STOPPED_MESSAGE };
    const own = store.messages();
    // KIND-7: calls the round limit refused are never run: the run ends with them reported.
    if (heldByRoundLimit(own, depth)) return subpromptResult(run.name, run.config, own, null);
    const steps = stepsThisTurn(own, depth);
    const pending = pendingToolCalls(own, depth);
    if (pending.length > 0) {
      await executeToolCalls(pending, {
        tools: run.tools,
        store,
        files: deps.files,
        emit: deps.emit,
        guards: run.guards,
        createState: run.createState,
        signal: deps.signal,
        stepCount: steps,
        side: run.side,
        scrub: deps.scrub ?? ((text: string) => text),
        now: deps.now ?? Date.now,
        heartbeatMs: deps.registry.toolHeartbeatMs,
        hooks: run.step.hooks ?? null,
        ...(deps.flow
          ? { flow: { flow: deps.flow, promptPath: [...(deps.promptPath ?? []), run.name], history: () => own } }
          : {}),
      });
      continue;
    }
    if (own[own.length - 1]?.role === 'assistant') return subpromptResult(run.name, run.config, own, null);
    if (steps >= MAX_STEPS_CEILING) {
      return subpromptResult(run.name, run.config, own, `it reached the limit of ${MAX_STEPS_CEILING} model steps`);
    }
    deps.onProgress?.();
    const stepped = await runModelStep(run.step, run.request, own);
    if (stepped.kind === 'ended') return endedResult(run, stepped.outcome);
  }
}

/** A step that ended the run: stopped, or a limit or failure the caller's model is told of. */
function endedResult(run: NestedRun, outcome: TurnOutcome): ToolResult {
  if (outcome.kind === 'stopped') return { status: 'error', error: STOPPED_MESSAGE };
  const failure = 'message' in outcome ? outcome.message : outcome.kind;
  return subpromptResult(run.name, run.config, [], failure);
}
