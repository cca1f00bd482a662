/**
 * The guards a call passes before it runs (LOCK-5, PERM-1 to PERM-4, KIND-5): capabilities, rules,
 * the watchdog and approvals, and the per-call states that carry the run-time gate; the states of
 * hooks, gated the same way (HOOK-10), and the runner of a prompt's hooks; the state application
 * code gets at rest (effects, thread endpoints, the family), behind the thread's rules.
 */
export { approvalGuard } from './approval-guard.js';
export type { StateFactory } from './call-states.js';
export { callStates } from './call-states.js';
export { type HookRunnerDeps, hookExecution, hookRunner } from './hook-states.js';
export { type RestingStateDeps, restingState } from './resting-states.js';
export type { GuardSetup } from './tool-guards.js';
export { rememberAllowed, rulesFor, toolGuards } from './tool-guards.js';
