/**
 * IDN-3: `resolveJwt` and the provider's key set over HTTP, from a local key server on 127.0.0.1
 * that EGRESS_ALLOW_HOSTS lets through: the set is fetched once and cached; a token with a key id the
 * set lacks fetches it again, at most once per cooldown (the provider rotated its keys); the fetch
 * passes the egress policy, follows no redirect and reads at most 64 KiB. Tokens of other kinds are
 * left to the other resolvers; a misconfigured provider answers 503, never lets a token in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../../src/http/contract/index.js';
import { JWKS_COOLDOWN_MS } from '../../../../src/http/identity/jwt-keys.js';
import { accessAssertion, resolveJwt } from '../../../../src/http/identity/jwt-resolver.js';
import type { RuntimeEnv } from '../../../../src/thread/bindings/index.js';
import {
  keySet,
  type SigningKey,
  signingKey,
  signToken,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '../../../support/jwt-issuer.js';

/** What the key server answers at each path, and how many requests each path received. */
const routes = new Map<string, () => { status: number; body: string; headers?: Record<string, string> }>();
const hits = new Map<string, number>();
let server: Server;
let origin: string;
let host: string;
let first: SigningKey;
let second: SigningKey;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    const answer = route ? route() : { status: 404, body: '{}' };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = `http://${host}`;
  first = await signingKey('ES256', 'first');
  second = await signingKey('ES256', 'second');
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.useRealTimers());

function env(path: string, variables: Partial<RuntimeEnv> = {}): RuntimeEnv {
  return {
    JWT_JWKS_URL: `${origin}${path}`,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    EGRESS_ALLOW_HOSTS: host,
    ...variables,
  } as RuntimeEnv;
}

function serve(path: string, ...keys: SigningKey[]) {
  routes.set(path, () => ({ status: 200, body: JSON.stringify(keySet(...keys)) }));
}

async function providerFailure(run: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await run.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return (error as HttpError).apiError as { status: number; code: string; message: string };
}

describe('IDN-3: resolveJwt', () => {
  it('is null when no provider is configured, and for tokens that are not a JWS', async () => {
    const token = await signToken(first, { sub: 'alice' });
    expect(await resolveJwt(token, {} as RuntimeEnv)).toBeNull();
    serve('/jwks/shape', first);
    for (const other of ['plain-key', 'sak_abc_def', 'a.b.c', 'key.with.dots', `${token}.extra`, 'e30.e30']) {
      expect(await resolveJwt(other, env('/jwks/shape')), other).toBeNull();
    }
    expect(hits.get('/jwks/shape')).toBeUndefined();
  });

  it('signs in with the key set fetched once, then cached', async () => {
    serve('/jwks/cached', first);
    for (const sub of ['alice', 'bob', 'carol']) {
      const token = await signToken(first, { sub });
      expect(await resolveJwt(token, env('/jwks/cached'))).toMatchObject({
        ok: true,
        principal: { subject: `jwt:${sub}` },
      });
    }
    expect(hits.get('/jwks/cached')).toBe(1);
  });

  it('picks up a rotated key after the cooldown; a removed key no longer signs in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    serve('/jwks/rotation', first);
    const path = '/jwks/rotation';
    expect(await resolveJwt(await signToken(first, { sub: 'alice' }), env(path))).toMatchObject({ ok: true });
    serve(path, second);
    // Within the cooldown an unknown key id fetches nothing: made-up key ids cannot hammer the provider.
    const rotated = await signToken(second, { sub: 'alice' });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await resolveJwt(rotated, env(path))).toMatchObject({ ok: false, code: 'invalid_token' });
    }
    expect(hits.get(path)).toBe(1);
    vi.setSystemTime(Date.now() + JWKS_COOLDOWN_MS + 1);
    expect(await resolveJwt(rotated, env(path))).toMatchObject({ ok: true });
    expect(hits.get(path)).toBe(2);
    const old = await signToken(first, { sub: 'alice' });
    expect(await resolveJwt(old, env(path))).toMatchObject({
      ok: false,
      code: 'invalid_token',
      message: expect.stringMatching(/key id/),
    });
  });

  it('refuses a key set past 64 KiB, a redirect, and an error status with 503, following nothing', async () => {
    const token = await signToken(first, { sub: 'alice' });
    const padded = { ...keySet(first), padding: 'x'.repeat(70 * 1024) };
    routes.set('/jwks/large', () => ({ status: 200, body: JSON.stringify(padded) }));
    routes.set('/jwks/redirect', () => ({ status: 302, body: '', headers: { location: '/jwks/target' } }));
    serve('/jwks/target', first);
    routes.set('/jwks/broken', () => ({ status: 500, body: 'oops' }));
    routes.set('/jwks/not-json', () => ({ status: 200, body: '<html>' }));
    routes.set('/jwks/no-keys', () => ({ status: 200, body: '{"kid":"x"}' }));
    const reasons: Record<string, RegExp> = {
      '/jwks/no-keys': /no "keys" list/,
      '/jwks/large': /larger than 65536 bytes/,
      '/jwks/redirect': /answered 302/,
      '/jwks/broken': /answered 500/,
      '/jwks/not-json': /not valid JSON/,
    };
    for (const [path, reason] of Object.entries(reasons)) {
      const failure = await providerFailure(resolveJwt(token, env(path)));
      expect(failure, path).toMatchObject({ status: 503, code: 'identity_provider_unavailable' });
      expect(failure.message, path).toMatch(reason);
    }
    expect(hits.get('/jwks/target')).toBeUndefined();
  });

  it('a provider that failed is not asked again until the cooldown has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const path = '/jwks/down';
    routes.set(path, () => ({ status: 503, body: 'down' }));
    const token = await signToken(first, { sub: 'alice' });
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await providerFailure(resolveJwt(token, env(path)))).code).toBe('identity_provider_unavailable');
    }
    expect(hits.get(path)).toBe(1);
    serve(path, first);
    vi.setSystemTime(Date.now() + JWKS_COOLDOWN_MS + 1);
    expect(await resolveJwt(token, env(path))).toMatchObject({ ok: true });
    expect(hits.get(path)).toBe(2);
  });

  it('fetches the key set under the egress policy: an inward address is refused unless listed', async () => {
    const token = await signToken(first, { sub: 'alice' });
    serve('/jwks/egress', first);
    const https = env('/jwks/egress', { JWT_JWKS_URL: `https://${host}/jwks/egress`, EGRESS_ALLOW_HOSTS: '' });
    const refused = await providerFailure(resolveJwt(token, https));
    expect(refused).toMatchObject({ status: 503, code: 'identity_provider_unavailable' });
    expect(refused.message).toMatch(/loopback/);
    const metadata = env('/x', { JWT_JWKS_URL: 'https://169.254.169.254/jwks', EGRESS_ALLOW_HOSTS: '169.254.169.254' });
    expect((await providerFailure(resolveJwt(token, metadata))).message).toMatch(/metadata/);
    expect(hits.get('/jwks/egress')).toBeUndefined();
  });

  it('a misconfigured provider answers 503 naming what is missing, for a JWT only', async () => {
    const token = await signToken(first, { sub: 'alice' });
    const failure = await providerFailure(resolveJwt(token, env('/jwks/x', { JWT_ISSUER: '' })));
    expect(failure).toMatchObject({ status: 503, code: 'auth_not_configured' });
    expect(failure.message).toMatch(/JWT_ISSUER is not set/);
    expect(await resolveJwt('plain-key', env('/jwks/x', { JWT_ISSUER: '' }))).toBeNull();
  });

  it('reads the Cloudflare Access assertion header', () => {
    const request = new Request('https://agents.test/api/threads', {
      headers: { 'Cf-Access-Jwt-Assertion': ' a.b.c ' },
    });
    expect(accessAssertion(request)).toBe('a.b.c');
    expect(accessAssertion(new Request('https://agents.test/'))).toBeNull();
  });
});
