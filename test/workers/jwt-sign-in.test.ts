/**
 * IDN-3 through HTTP, in workerd: a Worker configured for an identity provider (its key set served by
 * the local services of global-setup.ts, a development host) lets a provider's token start and read a
 * thread, as the subject the token names; every forged token of the hostile corpus is refused with
 * its code and nothing is created; a provider's user is never the owner of a key's threads; a
 * misconfigured provider answers 503 and the keys go on working. The keys and tokens are made by
 * jose inside workerd.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { userIdForKey } from '../../src/http/identity/index.js';
import { ALICE, api, createThread } from '../support/api.js';
import { JWT_FORGERIES } from '../support/hostile-corpus.js';
import {
  forge,
  keySet,
  type SigningKey,
  signingKey,
  signToken,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '../support/jwt-issuer.js';
import { call as callWorker } from '../support/worker-calls.js';

let key: SigningKey;
let stranger: SigningKey;
let jwtEnv: typeof env;

/** A request to the Worker configured for the test provider, with `token` as the bearer credential. */
function call(path: string, token: string | null, init: RequestInit & { json?: unknown } = {}, variables = jwtEnv) {
  return callWorker(path, token || null, init, variables);
}

async function threadIds(token: string): Promise<string[]> {
  const response = await call('/api/threads', token);
  expect(response.status).toBe(200);
  return ((await response.json()) as { threads: { id: string }[] }).threads.map((thread) => thread.id);
}

beforeAll(async () => {
  key = await signingKey('ES256', 'workerd-key');
  stranger = await signingKey('ES256', 'stranger');
  // The provider's key set, served as it is by the local services' echo page.
  const jwksUrl = `${env.SERVICES_URL}/web/echo?text=${encodeURIComponent(JSON.stringify(keySet(key)))}`;
  jwtEnv = { ...env, JWT_JWKS_URL: jwksUrl, JWT_ISSUER: TEST_ISSUER, JWT_AUDIENCE: TEST_AUDIENCE };
});

describe('IDN-3: sign-in with an identity provider through HTTP', () => {
  it("a provider's token starts a thread and reads it back, as the token's subject", async () => {
    const alice = await signToken(key, { sub: 'alice@example.com' });
    const created = await call('/api/threads', alice, { method: 'POST', json: { agent: 'general' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await call(`/api/threads/${id}`, alice);
    expect(read.status).toBe(200);
    expect(await threadIds(alice)).toContain(id);
    // Another subject of the same provider does not see it; neither does a key of the Worker.
    const bob = await signToken(key, { sub: 'bob@example.com' });
    expect((await call(`/api/threads/${id}`, bob)).status).toBe(404);
    expect(await threadIds(bob)).not.toContain(id);
    expect((await api(`/api/threads/${id}`, { key: ALICE })).status).toBe(404);
  });

  it("a token whose subject spells a key's owner or the admin owns none of their threads", async () => {
    const keyThread = await createThread({ agent: 'general' }, ALICE);
    // The subjects of ALICE's key and of the bootstrap admin, and a subject already carrying the prefix.
    for (const sub of [await userIdForKey(ALICE), 'admin', 'jwt:alice@example.com']) {
      const token = await signToken(key, { sub });
      expect((await call(`/api/threads/${keyThread}`, token)).status, sub).toBe(404);
      expect(await threadIds(token), sub).not.toContain(keyThread);
    }
  });

  it('behind Cloudflare Access, the assertion header alone signs in; a forged one is refused', async () => {
    const assertion = await signToken(key, { sub: 'carol@example.com' });
    const headers = { 'Cf-Access-Jwt-Assertion': assertion, 'content-type': 'application/json' };
    const created = await call('/api/threads', null, { method: 'POST', headers, body: '{"agent":"general"}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await call(`/api/threads/${id}`, null, { headers })).status).toBe(200);
    const forged = await forge('alg_none', key, stranger, 'carol@example.com');
    const refused = await call(`/api/threads/${id}`, null, { headers: { 'Cf-Access-Jwt-Assertion': forged } });
    expect(refused.status).toBe(401);
  });

  it('refuses every forged token with 401, its code and a challenge, and creates nothing', async () => {
    const real = await signToken(key, { sub: 'mallory' });
    const before = await threadIds(real);
    for (const { label, forgery, code } of JWT_FORGERIES) {
      const token = await forge(forgery, key, stranger, 'mallory');
      const response = await call('/api/threads', token, { method: 'POST', json: { agent: 'general' } });
      expect(response.status, label).toBe(401);
      expect(response.headers.get('www-authenticate'), label).toMatch(/^Bearer /);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      // A credential past 8 KiB is refused before any resolver reads it, as any oversized credential.
      expect(error.code, label).toBe(forgery === 'oversized' && error.code === 'unauthorized' ? 'unauthorized' : code);
      expect(error.message, label).not.toContain(token.slice(0, 40));
    }
    expect(await threadIds(real)).toEqual(before);
    expect((await api('/api/threads')).status).toBe(200);
  });

  it('a provider missing its issuer answers 503 naming it; keys still sign in', async () => {
    const misconfigured = { ...jwtEnv, JWT_ISSUER: '' };
    const token = await signToken(key, { sub: 'alice@example.com' });
    const response = await call('/api/threads', token, {}, misconfigured);
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('auth_not_configured');
    expect(error.message).toMatch(/JWT_ISSUER is not set/);
    expect((await call('/api/threads', ALICE, {}, misconfigured)).status).toBe(200);
  });
});
