/**
 * A verified token's claims as a principal (IDN-3, IDN-4): the tenant from the configured claim (or
 * the default tenant), the subject from the subject claim, the role from the role claim (one role
 * name, or a list of them: the highest counts) or the default role.
 *
 * Nothing is guessed. A tenant claim that is configured but missing, a role value that is not one of
 * the four roles, a subject that is missing or not a usable id: each refuses the token rather than
 * falling back, because a fallback would hand a token its issuer never meant to grant.
 *
 * The principal's subject is `jwt:` and the claim's value, so a provider's user can never be the
 * subject of a key (`u_<hex>`, `admin`) and own its threads, whatever its subject claim says.
 */
import { type Principal, ROLES, type Role } from '../../thread/access/index.js';
import { type JwtSettings, TENANT_PATTERN } from './jwt-settings.js';
import { type Resolution, refused } from './resolution.js';

/** The prefix of every subject that signed in with a JWT. */
export const JWT_SUBJECT_PREFIX = 'jwt:';
const MAX_SUBJECT_LENGTH = 256;
/** C0 and C1 control characters and DEL: never part of an id shown in logs and headers. */
const CONTROL = /\p{Cc}/u;

type Claims = Record<string, unknown>;

/** The claim's own value: never one inherited from Object's prototype (`constructor`, `__proto__`). */
function claim(claims: Claims, name: string): unknown {
  return Object.hasOwn(claims, name) ? claims[name] : undefined;
}

/**
 * The subject as a principal's subject: printable ASCII kept, anything else (and `%`) percent-encoded,
 * so the id is one-to-one with the claim and safe in a header.
 */
function subjectId(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > MAX_SUBJECT_LENGTH || CONTROL.test(value)) {
    return null;
  }
  try {
    return JWT_SUBJECT_PREFIX + value.replace(/[^\x20-\x24\x26-\x7e]/gu, (char) => encodeURIComponent(char));
  } catch {
    return null; // a lone surrogate: not text at all
  }
}

/** The role a claim value grants: a role name, or the highest of a list of role names. */
export function roleFromClaim(value: unknown): Role | null {
  const names = Array.isArray(value) ? value : [value];
  if (names.length === 0) return null;
  let highest = -1;
  for (const name of names) {
    const rank = typeof name === 'string' ? (ROLES as readonly string[]).indexOf(name) : -1;
    if (rank < 0) return null;
    highest = Math.max(highest, rank);
  }
  return ROLES[highest] ?? null;
}

function tenantOf(claims: Claims, settings: JwtSettings): string | null {
  if (settings.tenantClaim === null) return settings.defaultTenant;
  const value = claim(claims, settings.tenantClaim);
  return typeof value === 'string' && TENANT_PATTERN.test(value) ? value : null;
}

/** The principal a verified token's claims name, or the refusal saying which claim is wrong. */
export function principalFromClaims(claims: Claims, settings: JwtSettings): Resolution {
  const subject = subjectId(claim(claims, settings.subjectClaim));
  if (subject === null)
    return refused('invalid_token', `the token's ${settings.subjectClaim} claim is missing or not an id`);
  const tenant = tenantOf(claims, settings);
  if (tenant === null)
    return refused('invalid_token', `the token's ${settings.tenantClaim} claim is missing or not a tenant`);
  const roleValue = claim(claims, settings.roleClaim);
  const role = roleValue === undefined ? settings.defaultRole : roleFromClaim(roleValue);
  if (role === null) {
    return refused(
      'invalid_token',
      `the token's ${settings.roleClaim} claim names no role (viewer, member, approver, admin)`,
    );
  }
  const principal: Principal = { tenant, subject, role, via: 'jwt' };
  return { ok: true, principal };
}
