/**
 * One model step (THR-2, THR-3, THR-4, KIND-7), used by a side's turn and by prompts run nested in
 * it: the request fitted to the budget and the context window, compacting when needed; the model
 * called with streaming; the round limit decided; the assistant message stored; usage recorded;
 * streamed text either stored or abandoned, and sent coalesced to at most one frame per interval.
 */
export { CoalescedTextFrames, type FlushClock, SYSTEM_CLOCK } from './coalesced-text-frames.js';
export { runModelStep } from './model-step.js';
export { ROUND_LIMIT_MESSAGE } from './round-limit.js';
export type { StepConversation, StepEnd, StepRequest, StepRun } from './step-types.js';
export { abandonStreamedText } from './streamed-text.js';
