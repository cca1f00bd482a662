/** The guards room's door: what the rest of the runtime may use of it. */
export { approvalGuard } from './approval-guard.js';
export type { StateFactory } from './call-states.js';
export { callStates } from './call-states.js';
export type { GuardSetup } from './tool-guards.js';
export { rememberAllowed, toolGuards } from './tool-guards.js';
