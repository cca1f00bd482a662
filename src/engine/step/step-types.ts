/**
 * What one model step is given and how it ends. A step belongs to a run: a side's turn (turn/), or
 * a prompt run nested in one (subagents/). The run says where the step's messages are read and
 * stored and which of them the model is sent; the request says what this step offers the model.
 */
import type {
  Message,
  ModelDefinition,
  ModelMessage,
  ModelSide,
  PromptDefinition,
  ToolCall,
} from '../../spec/index.js';
import type { TurnDeps, TurnOutcome } from '../conversation/index.js';
import type { HookRunner } from '../hooks/index.js';
import type { ModelTool, Provider, RequestSettings, ThreadStore } from '../ports/index.js';
import type { Shown } from '../request/index.js';

/** The conversation a step continues. */
export interface StepConversation {
  /** Where its messages are read and stored: a side's view of the thread, or a nested run's own. */
  store: ThreadStore;
  /** The depth of its messages: 0 for a side's turn, one below the calling step for a nested run. */
  depth: number;
  /** Which messages of its history the model is sent. */
  shown: Shown;
  /**
   * The messages a request is built from, given the store's: a nested run shown the conversation
   * it was called from (`includeChat`) has those messages first.
   */
  history(own: readonly Message[]): readonly Message[];
  /** The user message whose turn the step's usage counts toward (THR-4). */
  turnId(own: readonly Message[]): string;
}

/** What stays the same for every step of a run. */
export interface StepRun {
  /** The turn's dependencies: the thread's store (budget, usage, streaming), provider, frames, signal. */
  deps: TurnDeps;
  conversation: StepConversation;
  prompt: PromptDefinition;
  model: ModelDefinition;
  provider: Provider;
  settings: RequestSettings | undefined;
  /** Set in a `dual_ai` thread: the side whose turn this is (told to the provider). */
  side?: ModelSide;
  /** The active prompt's hooks (HOOK-8): around the request and the stored assistant message; none when null. */
  hooks?: HookRunner | null;
}

/** What this step offers the model. */
export interface StepRequest {
  tools: readonly ModelTool[];
  /** The system text `render` puts first: what `after_system_message` is given (HOOK-8). */
  system?: string;
  /** The request's messages from the conversation's history (system text and images included). */
  render(history: readonly Message[]): ModelMessage[];
}

export type StepEnd =
  /** The step's message is stored; `refused` when the round limit held its calls (KIND-7). */
  | { kind: 'stored'; message: Message; toolCalls: ToolCall[]; refused: boolean }
  /** The run ends here: a limit before the call, a stop or failure during it, a refused answer after it. */
  | { kind: 'ended'; outcome: TurnOutcome };
