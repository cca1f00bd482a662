/**
 * IDN-3 end to end: a real `wrangler dev` signs in with an identity provider's JWTs, its key set
 * served over HTTP by a local key server on 127.0.0.1 that EGRESS_ALLOW_HOSTS lets through. The set
 * is fetched once for many requests; when the provider rotates its keys (the server switches to a
 * new key and drops the old), a token signed by the new key signs in once the Worker has fetched the
 * set again (an unknown key id refetches it, at most once per 5 s cooldown: the test waits on that
 * condition, not on a clock), and a token of the removed key is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { keySet, type SigningKey, signingKey, signToken, TEST_AUDIENCE, TEST_ISSUER } from '../support/jwt-issuer.js';

let keyServer: Server;
let published: SigningKey[] = [];
let keyFetches = 0;
let dev: WranglerDev;
let oldKey: SigningKey;
let newKey: SigningKey;

function get(path: string, token: string): Promise<Response> {
  return fetch(`${dev.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
}

/** Calls `attempt` until it returns true, failing after `timeoutMs`: a wait on a condition. */
async function until(what: string, attempt: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await attempt())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  oldKey = await signingKey('RS256', 'key-2026-01');
  newKey = await signingKey('EdDSA', 'key-2026-02');
  published = [oldKey];
  keyServer = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    keyFetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(keySet(...published)));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
  dev = await startWranglerDev({
    vars: {
      API_KEYS: 'e2e-jwt-key',
      JWT_JWKS_URL: `http://${host}/.well-known/jwks.json`,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      EGRESS_ALLOW_HOSTS: host,
    },
  });
});

afterAll(async () => {
  await dev?.stop();
  await new Promise<void>((resolve) => keyServer?.close(() => resolve()));
});

describe("IDN-3: a real Worker and a provider's key set over HTTP", () => {
  it('signs in, fetches the key set once, follows a key rotation and refuses the removed key', async () => {
    const alice = await signToken(oldKey, { sub: 'alice' });
    const created = await fetch(`${dev.url}/api/threads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'assistant' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (let request = 0; request < 3; request++) expect((await get(`/api/threads/${id}`, alice)).status).toBe(200);
    expect(keyFetches).toBe(1);

    // The provider rotates: only the new key is published from now on.
    published = [newKey];
    const rotated = await signToken(newKey, { sub: 'alice' });
    await until('the new key to sign in', async () => (await get(`/api/threads/${id}`, rotated)).status === 200);
    expect(keyFetches).toBeGreaterThanOrEqual(2);

    const removed = await get(`/api/threads/${id}`, await signToken(oldKey, { sub: 'alice' }));
    expect(removed.status).toBe(401);
    expect(((await removed.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
    // The same subject, whichever key signed its token: the thread is still alice's.
    expect(((await (await get('/api/threads', rotated)).json()) as { threads: { id: string }[] }).threads).toEqual(
      expect.arrayContaining([expect.objectContaining({ id })]),
    );
  });
});
