/**
 * The conversation as the stored log says it is (THR-3, DEF-6, KIND-7): what a turn is given and how
 * it ends, where the turn started, the calls still pending (and ending them unrun), whether the log
 * asks for a turn, dual_ai sides and whose turn it is, what the thread's models have cost against its
 * budget, the doom-loop breaker, the step ceiling, and the flag variables that switch optional tools
 * on. All of it is read from the log, never from memory, so a restarted thread picks up where it
 * stopped. What the model is sent is built from these in request/, the room above.
 */
export { cancelPendingCalls } from './cancel-pending.js';
export { repeatedFailure } from './doom-loop.js';
export { flagOn } from './flags.js';
export { MAX_STEPS_CEILING } from './limits.js';
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
export {
  hasHeldCalls,
  heldByRoundLimit,
  lastUserIndex,
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
  stepCost,
  threadBudget,
  threadUsage,
  turnIdOf,
  turnUsage,
} from './usage.js';
