/**
 * What a grant carries (IDN-7): the principal who signed in on the authorization page, stored by
 * the library encrypted under the token, and read back on every `/mcp` request with that token.
 * The person acts through their client as themselves — same tenant, same subject, same role — and
 * the sign-in is marked `oauth`.
 */
import { isRole, type Principal } from '../../thread/access/index.js';

/** What a grant stores: the principal, minus how it signed in (always OAuth when read back). */
export interface GrantProps {
  tenant: string;
  subject: string;
  role: Principal['role'];
  keyId?: string;
}

export function grantProps(principal: Principal): GrantProps {
  const { tenant, subject, role, keyId } = principal;
  return { tenant, subject, role, ...(keyId !== undefined ? { keyId } : {}) };
}

/** The principal of a grant's props, or null for props this runtime did not write. */
export function principalOfGrant(props: unknown): Principal | null {
  if (typeof props !== 'object' || props === null) return null;
  const { tenant, subject, role, keyId } = props as Record<string, unknown>;
  if (typeof tenant !== 'string' || typeof subject !== 'string' || !isRole(role)) return null;
  if (tenant === '' || subject === '') return null;
  return { tenant, subject, role, via: 'oauth', ...(typeof keyId === 'string' ? { keyId } : {}) };
}

const encoder = new TextEncoder();

/**
 * The library's user id of a principal's grants: it becomes the first part of every token
 * (`<user>:<grant>:<secret>`) and the key of the grants the library revokes when the same person
 * authorizes the same client again, so it is one per tenant and subject, and holds no colon (a
 * subject from an identity provider may). A hash, so no subject is written in clear in KV keys.
 */
export async function grantUserId(principal: Principal): Promise<string> {
  const name = JSON.stringify([principal.tenant, principal.subject]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(name)));
  return `p_${[...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
