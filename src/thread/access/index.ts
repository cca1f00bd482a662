/**
 * Identity as the Durable Objects see it: the principal a request acts as, its roles, and which
 * threads it sees and what it may do to them. The HTTP layer turns credentials into a principal;
 * this room is what both sides agree on.
 */
export { DEFAULT_TENANT, isRole, type Principal, ROLES, type Role, roleAtLeast, type SignIn } from './principal.js';
export { type ThreadAccess, type ThreadAction, type ThreadOwnership, threadAccess } from './thread-access.js';
