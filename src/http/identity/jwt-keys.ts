/**
 * The identity provider's public keys (IDN-3), fetched and cached per isolate: jose's remote key set
 * keeps the last set for 10 minutes, and a token naming a key id the set does not hold (the provider
 * rotated its keys) fetches it again, at most once per cooldown, so a stream of made-up key ids cannot
 * make the Worker hammer the provider; nor can a provider that is down (after a failure, nothing is
 * fetched for the same cooldown).
 *
 * Every fetch goes through the runtime's egress policy, the same check as `state.fetch`: no private or
 * loopback address unless `EGRESS_ALLOW_HOSTS` lists it, no redirect followed (a key set that moved
 * is a configuration to update, not a hop to trust), and the body is read up to a cap.
 */
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { type EgressPolicy, outboundFetch } from '../../engine/egress/index.js';

/** A key set larger than this is refused: real ones are a few kilobytes. */
export const MAX_JWKS_BYTES = 64 * 1024;
/** How soon after a fetch a token with an unknown key id may fetch the set again. */
export const JWKS_COOLDOWN_MS = 5_000;
/** How long a fetched set is used before it is fetched again. */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
const JWKS_TIMEOUT_MS = 5_000;
/** Distinct key URLs remembered per isolate (settings rarely change; tests use several). */
const MAX_CACHED_SETS = 8;

/** The key set could not be fetched or read: the provider's side (or the configuration), not the token. */
export class JwksUnavailable extends Error {}

/** The body of `response`, refused past `MAX_JWKS_BYTES` without reading further. */
async function cappedBody(response: Response): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_JWKS_BYTES) {
    await response.body?.cancel();
    throw new JwksUnavailable(`the key set is larger than ${MAX_JWKS_BYTES} bytes`);
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JWKS_BYTES) {
      await reader.cancel();
      throw new JwksUnavailable(`the key set is larger than ${MAX_JWKS_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** One fetch of the key set: egress-checked, no redirect, capped; any failure is JwksUnavailable. */
async function fetchKeySet(egress: EgressPolicy, url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await outboundFetch({ egress }, url, { ...init, redirect: 'manual' });
  } catch (error) {
    throw new JwksUnavailable(error instanceof Error ? error.message : String(error));
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new JwksUnavailable(`the key set URL answered ${response.status}`);
  }
  const body = new TextDecoder().decode(await cappedBody(response));
  let keys: unknown;
  try {
    keys = (JSON.parse(body) as { keys?: unknown } | null)?.keys;
  } catch {
    throw new JwksUnavailable('the key set is not valid JSON');
  }
  if (!Array.isArray(keys)) throw new JwksUnavailable('the key set has no "keys" list');
  return new Response(body, { status: 200 });
}

/**
 * The fetch jose uses. After a failure it fetches nothing for a cooldown: jose retries a set it never
 * got on every token, and a provider that is down must not turn each request into another fetch.
 */
function checkedKeyFetch(egress: EgressPolicy) {
  let failed: { at: number; reason: string } | null = null;
  return async (url: string, init: RequestInit): Promise<Response> => {
    if (failed && Date.now() - failed.at < JWKS_COOLDOWN_MS) {
      throw new JwksUnavailable(`${failed.reason} (tried again a few seconds after a failure)`);
    }
    try {
      const response = await fetchKeySet(egress, url, init);
      failed = null;
      return response;
    } catch (error) {
      failed = { at: Date.now(), reason: (error as Error).message };
      throw error;
    }
  };
}

const sets = new Map<string, JWTVerifyGetKey>();

/** The cached key set of `url` fetched under `egress`, made on first use. */
export function providerKeys(url: URL, egress: EgressPolicy): JWTVerifyGetKey {
  const key = `${url.href} ${[...egress.allowHosts].sort().join(',')}`;
  let set = sets.get(key);
  if (!set) {
    set = createRemoteJWKSet(url, {
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
      timeoutDuration: JWKS_TIMEOUT_MS,
      [customFetch]: checkedKeyFetch(egress),
    });
    if (sets.size >= MAX_CACHED_SETS) sets.delete(sets.keys().next().value as string);
    sets.set(key, set);
  }
  return set;
}
