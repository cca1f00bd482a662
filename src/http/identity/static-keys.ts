/**
 * Keys written into the Worker's settings (IDN-1, IDN-2): the entries of `API_KEYS` and the
 * bootstrap `ADMIN_KEY`.
 *
 * `API_KEYS` is comma-separated; an entry is `<key>` or `<key>:<role>`. Each key is its own subject of
 * the default tenant, named by a hash of the key (`u_` and 32 hex digits: the owner ids threads made
 * before tenants already carry), with the role written beside it or `approver` — what such a key could
 * always do: start threads, post, and answer everything on its own threads. `ADMIN_KEY` is the
 * default tenant's subject `admin`, role `admin`: the key that issues the first keys.
 *
 * Comparison is of SHA-256 digests looked up in a set, so its time does not depend on where a guess
 * first differs from a key.
 */
import { DEFAULT_TENANT, isRole, type Principal, type Role } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { sha256Hex } from './digest.js';
import type { Resolution } from './resolution.js';

/** The role of an `API_KEYS` entry that names none. */
export const DEFAULT_KEY_ROLE: Role = 'approver';

/** The owner id of a key's threads, from the key's digest (THR-6). */
function subjectForDigest(digest: string): string {
  return `u_${digest.slice(0, 32)}`;
}

/** The subject an `API_KEYS` key stands for. */
export async function userIdForKey(key: string): Promise<string> {
  return subjectForDigest(await sha256Hex(key));
}

/** An entry split into key and role; `key:role` only when the part after the last colon is a role. */
function parseEntry(entry: string): { key: string; role: Role } {
  const colon = entry.lastIndexOf(':');
  const suffix = colon > 0 ? entry.slice(colon + 1).trim() : '';
  return isRole(suffix) ? { key: entry.slice(0, colon).trim(), role: suffix } : { key: entry, role: DEFAULT_KEY_ROLE };
}

interface StaticKeys {
  source: string;
  roles: Promise<Map<string, Role>>;
}

let cached: StaticKeys | null = null;

/** Digest → role of every `API_KEYS` entry, computed once per setting. */
function keyRoles(source: string): Promise<Map<string, Role>> {
  if (cached?.source !== source) {
    const entries = source
      .split(',')
      .map((entry) => parseEntry(entry.trim()))
      .filter((entry) => entry.key !== '');
    const roles = Promise.all(entries.map(async (entry) => [await sha256Hex(entry.key), entry.role] as const));
    cached = { source, roles: roles.then((pairs) => new Map(pairs)) };
  }
  return cached.roles;
}

let adminDigest: { key: string; digest: Promise<string> } | null = null;

function adminKeyDigest(key: string): Promise<string> {
  if (adminDigest?.key !== key) adminDigest = { key, digest: sha256Hex(key) };
  return adminDigest.digest;
}

/** The principal of an `API_KEYS` entry or of `ADMIN_KEY`; null when the token is neither. */
export async function resolveStaticKey(token: string, env: RuntimeEnv): Promise<Resolution | null> {
  const digest = await sha256Hex(token);
  const admin = env.ADMIN_KEY?.trim();
  if (admin && digest === (await adminKeyDigest(admin))) {
    const principal: Principal = { tenant: DEFAULT_TENANT, subject: 'admin', role: 'admin', via: 'admin_key' };
    return { ok: true, principal };
  }
  const role = (await keyRoles(env.API_KEYS ?? '')).get(digest);
  if (!role) return null;
  return { ok: true, principal: { tenant: DEFAULT_TENANT, subject: subjectForDigest(digest), role, via: 'api_keys' } };
}
