/**
 * The conversation as the loop reads it (THR-3, DEF-6, KIND-7, KIND-8): what a turn is given, what
 * the model is sent, what the log says is pending, dual_ai sides, round and step limits.
 */
export { cancelPendingCalls } from './cancel-pending.js';
export type { CompactionMark } from './compaction.js';
export { compactConversation, estimateTokens, latestCompaction, requestBudget } from './compaction.js';
export { buildModelMessages, lastUserIndex, turnStartIndex } from './context.js';
export { repeatedFailure } from './doom-loop.js';
export { MAX_STEPS_CEILING } from './limits.js';
export { requestSettings, responseFormatProblem } from './model-settings.js';
export { flagOn, modelTools, offerChanges, offeredTools } from './offered-tools.js';
export { inMainConversation, notSilent, type Shown } from './shown.js';
export type { Side, TurnEnd } from './sides.js';
export {
  nextSide,
  otherSide,
  recordTurnEnd,
  SESSION_TURNS_CEILING,
  SideStore,
  sessionTurns,
  sideOf,
  unmarkedAnswer,
} from './sides.js';
export { systemText } from './system-prompt.js';
export { ToolImages } from './tool-images.js';
export {
  hasHeldCalls,
  heldByRoundLimit,
  lastVisible,
  needsTurn,
  pendingToolCalls,
  roundsThisTurn,
  stepsThisTurn,
  userAfter,
} from './turn-log.js';
export type { TurnDeps, TurnOutcome } from './turn-types.js';
export type { Budget } from './usage.js';
export {
  BUDGET_KEY,
  budgetExceeded,
  effectiveBudget,
  NO_USAGE,
  recordUsage,
  threadBudget,
  threadUsage,
  turnIdOf,
  turnUsage,
} from './usage.js';
