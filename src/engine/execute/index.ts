/**
 * Running tool calls (EXE-1 to EXE-6, KIND-2 to KIND-6): validation, the executor's pipeline, the
 * timeout and abort around a tool's code, the ThreadState a tool receives, and result shaping.
 */

export { seedToolContexts } from './context-seed.js';
export type { GuardDecision, ToolGuard } from './executor.js';
export { executeToolCalls } from './executor.js';
export type { Fence } from './fenced-state.js';
export { fencedState } from './fenced-state.js';
export { callingStep, MAX_INVOKE_DEPTH } from './invoke-tool.js';
export { noteOutsideFile } from './outside-files.js';
export type { ResolvedVariables, ThreadStateDeps } from './thread-state.js';
export { createThreadState, isToolWrittenKey, threadStates, toolValueKey } from './thread-state.js';
export { INTERRUPTED_MESSAGE, STOPPED_MESSAGE, TurnInterrupted } from './tool-call-error.js';
export type { ValidatedCall } from './tool-call-validation.js';
export { parsedArguments } from './tool-call-validation.js';
export { contextualStates, localContextKey } from './tool-context.js';
export type { CallFlow, ExecutionFlow } from './tool-runner.js';
export { executionState } from './tool-runner.js';
export { markUntrustedAs } from './untrusted-output.js';
