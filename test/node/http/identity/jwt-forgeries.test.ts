/**
 * IDN-3: JWT sign-in refuses every forged token of the hostile corpus (wrong issuer or audience, a
 * bad signature, alg none, HS256 keyed with the public key, an unknown key id, expired, not yet
 * valid, no expiry, no subject, oversized, a role that does not exist), each with its code and a
 * reason that never repeats the token, and accepts the provider's real tokens, RS256, ES256, EdDSA
 * and PS256, with 30 seconds of clock tolerance.
 */
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyJwt } from '../../../../src/http/identity/jwt-resolver.js';
import { type JwtSettings, jwtConfiguration } from '../../../../src/http/identity/jwt-settings.js';
import { JWT_FORGERIES } from '../../../support/hostile-corpus.js';
import {
  forge,
  keySet,
  type SigningKey,
  signingKey,
  signToken,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '../../../support/jwt-issuer.js';

let key: SigningKey;
let stranger: SigningKey;
let keys: JWTVerifyGetKey;

function settings(variables: Record<string, string> = {}): JwtSettings {
  const configuration = jwtConfiguration({
    JWT_JWKS_URL: 'https://idp.example.test/jwks',
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: `other-app,${TEST_AUDIENCE}`,
    ...variables,
  });
  if (configuration.state !== 'ready') throw new Error(JSON.stringify(configuration));
  return configuration.settings;
}

beforeAll(async () => {
  key = await signingKey('RS256', 'provider-key');
  stranger = await signingKey('RS256', 'stranger-key');
  keys = createLocalJWKSet(keySet(key));
});

describe('IDN-3: forged tokens are refused', () => {
  for (const { label, forgery, code, reason } of JWT_FORGERIES) {
    it(`refuses a token ${label}`, async () => {
      const token = await forge(forgery, key, stranger, 'mallory');
      const resolution = await verifyJwt(token, settings(), keys);
      expect(resolution).toEqual({ ok: false, code, message: expect.stringMatching(reason) });
      // The reason is short and repeats none of the token.
      const message = resolution.ok ? '' : resolution.message;
      expect(message.length).toBeLessThan(120);
      for (const part of token.split('.').filter((piece) => piece.length >= 8)) {
        expect(message).not.toContain(part.slice(0, 8));
      }
      expect(message).not.toContain('mallory');
    });
  }
});

describe("IDN-3: the provider's own tokens sign in", () => {
  for (const alg of ['RS256', 'ES256', 'EdDSA', 'PS256'] as const) {
    it(`accepts ${alg}, with the audience among those listed`, async () => {
      const own = await signingKey(alg, `${alg}-key`);
      const token = await signToken(own, { sub: 'alice', role: ['viewer', 'approver'] });
      expect(await verifyJwt(token, settings(), createLocalJWKSet(keySet(key, own)))).toEqual({
        ok: true,
        principal: { tenant: 'default', subject: 'jwt:alice', role: 'approver', via: 'jwt' },
      });
    });
  }

  it('allows 30 seconds of clock difference either way, not more', async () => {
    const justExpired = await signToken(key, { sub: 'alice' }, { expiresIn: -20 });
    const almostValid = await signToken(key, { sub: 'alice' }, { notBefore: 20 });
    expect(await verifyJwt(justExpired, settings(), keys)).toMatchObject({ ok: true });
    expect(await verifyJwt(almostValid, settings(), keys)).toMatchObject({ ok: true });
    const expired = await signToken(key, { sub: 'alice' }, { expiresIn: -45 });
    const early = await signToken(key, { sub: 'alice' }, { notBefore: 45 });
    expect(await verifyJwt(expired, settings(), keys)).toMatchObject({ ok: false, code: 'token_expired' });
    expect(await verifyJwt(early, settings(), keys)).toMatchObject({ ok: false, code: 'invalid_token' });
  });

  it('an algorithm left out of JWT_ALGORITHMS is refused even with a published key', async () => {
    const es = await signingKey('ES256', 'es-key');
    const token = await signToken(es, { sub: 'alice' });
    const resolution = await verifyJwt(token, settings({ JWT_ALGORITHMS: 'RS256' }), createLocalJWKSet(keySet(es)));
    expect(resolution).toMatchObject({ ok: false, code: 'invalid_token', message: expect.stringMatching(/algorithm/) });
  });

  it('names the tenant and role its claims carry', async () => {
    const token = await signToken(key, { email: 'bob@example.com', org: 'acme', roles: 'admin' });
    const mapped = settings({ JWT_TENANT_CLAIM: 'org', JWT_SUBJECT_CLAIM: 'email', JWT_ROLE_CLAIM: 'roles' });
    expect(await verifyJwt(token, mapped, keys)).toEqual({
      ok: true,
      principal: { tenant: 'acme', subject: 'jwt:bob@example.com', role: 'admin', via: 'jwt' },
    });
  });
});
