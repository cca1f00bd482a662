/**
 * Permissions (LOCK-5, PERM-1, PERM-2): capability sets, permission rules and their scopes, the
 * checks of what a call touches, and the access gate that checks each act of a running call.
 */
export type { LabelledCheck } from './access-checks.js';
export { callChecks, fallbackFor } from './access-checks.js';
export type { AccessGate } from './access-gate.js';
export { AccessDenied, accessGate } from './access-gate.js';
export { ALWAYS_APPROVED_KEY, approvalSubjects, approvedAlways, rememberApproval } from './always-approvals.js';
export type { EffectiveCapabilities } from './capabilities.js';
export { assertRequirementPatterns, effectiveCapabilities, outOfScope } from './capabilities.js';
export type { ScopedRule } from './permission-rules.js';
export { assertRules, decide, describeRule, hostRefusal, ruleProblem } from './permission-rules.js';
export { readsOnly } from './read-only.js';
export { INHERITED_RULES_KEY, rulesForChild, SESSION_RULES_KEY, sessionRules, threadRules } from './thread-rules.js';
