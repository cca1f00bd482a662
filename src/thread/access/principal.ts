/**
 * Who a request acts as: a principal `{ tenant, subject, role }`. Every way of signing in (a key of
 * `API_KEYS`, a key issued through the API, the bootstrap admin key, a JWT from an identity provider,
 * an OAuth access token on `/mcp`) ends in one of these, and everything after authentication — which
 * threads are visible, what may be done to them, whose limits a request counts against — reads only
 * the principal (IDN-1).
 */

/** The roles, weakest first: each may do everything the ones before it may (IDN-4). */
export const ROLES = ['viewer', 'member', 'approver', 'admin'] as const;

export type Role = (typeof ROLES)[number];

/** How a principal signed in: shown in the audit log, never used to decide access. */
/** `thread`: a thread acting on its own family (`getChildThread`, `getParentThread`), as its owner. */
export type SignIn = 'api_keys' | 'key' | 'admin_key' | 'jwt' | 'oauth' | 'thread';

export interface Principal {
  /** The tenant whose threads, keys, limits and audit log the principal belongs to. */
  tenant: string;
  /** Who it is inside the tenant: a thread it starts is owned by this subject. */
  subject: string;
  role: Role;
  via: SignIn;
  /** The issued key's id when `via` is `key`: its limits and last use are kept under it. */
  keyId?: string;
}

/** The tenant of `API_KEYS` entries, of the bootstrap admin key, and of threads made before tenants. */
export const DEFAULT_TENANT = 'default';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `least` may (IDN-4). */
export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}
