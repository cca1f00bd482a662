/** The execute room's door: what the rest of the runtime may use of it. */
export type { GuardDecision, ToolGuard } from './executor.js';
export { executeToolCalls } from './executor.js';
export type { ResolvedVariables } from './thread-state.js';
export { createThreadState, isToolWrittenKey, toolValueKey } from './thread-state.js';
export { STOPPED_MESSAGE } from './tool-call-error.js';
export type { ValidatedCall } from './tool-call-validation.js';
export { parsedArguments } from './tool-call-validation.js';
export { contextualStates } from './tool-context.js';
