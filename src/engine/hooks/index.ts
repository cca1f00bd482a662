/**
 * Hooks (HOOK-1 to HOOK-10): the runner that calls an application's hooks at a point, in the order
 * the active prompt (or agent) names them, each under its time limit, a failure skipped and reported;
 * messages stored through the create hooks; tool calls a hook dropped. It sits above registry/
 * (which resolves which hooks run) and below execute/, step/ and turn/, which call it where
 * messages are stored, requests built and tool results kept.
 */
export { DROPPED_BY_HOOK, DROPPED_CALLS_KEY, recordDroppedCall, withoutDroppedCalls } from './dropped-calls.js';
export { DROPPED, HookFailed, HookRunner, type HookSetup, type HookStateLease } from './hook-runner.js';
export { appendWithHooks } from './hooked-append.js';
export { withHooks } from './hooked-state.js';
export { resultThroughHooks } from './tool-result-hooks.js';
