/**
 * The guards a call passes before it runs (LOCK-5, PERM-1 to PERM-4, KIND-5): capabilities, rules,
 * the watchdog and approvals, and the per-call states that carry the run-time gate.
 */
export { approvalGuard } from './approval-guard.js';
export type { StateFactory } from './call-states.js';
export { callStates } from './call-states.js';
export type { GuardSetup } from './tool-guards.js';
export { rememberAllowed, rulesFor, toolGuards } from './tool-guards.js';
