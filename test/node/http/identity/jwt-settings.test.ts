/**
 * IDN-3: JWT sign-in's settings as the Worker's variables give them, and a verified token's claims
 * as a principal. A half-configured provider is a misconfiguration naming what is missing, never an
 * open door; a claim that names no tenant, subject or role refuses the token instead of defaulting.
 */
import { describe, expect, it } from 'vitest';
import { principalFromClaims, roleFromClaim } from '../../../../src/http/identity/jwt-claims.js';
import {
  DEFAULT_ALGORITHMS,
  type JwtConfiguration,
  type JwtSettings,
  jwtConfiguration,
  jwtConfigured,
} from '../../../../src/http/identity/jwt-settings.js';

type Variables = Parameters<typeof jwtConfiguration>[0];

const BASE: Variables = {
  JWT_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
  JWT_ISSUER: 'https://idp.example.com/',
  JWT_AUDIENCE: 'agents',
};

function settings(variables: Variables): JwtSettings {
  const configuration = jwtConfiguration(variables);
  if (configuration.state !== 'ready') throw new Error(`not ready: ${JSON.stringify(configuration)}`);
  return configuration.settings;
}

function problem(variables: Variables): string {
  const configuration: JwtConfiguration = jwtConfiguration(variables);
  if (configuration.state !== 'misconfigured') throw new Error(`not misconfigured: ${configuration.state}`);
  return configuration.message;
}

describe('IDN-3: JWT settings from the variables', () => {
  it('is off without a key URL or a preset, and on with either', () => {
    expect(jwtConfiguration({}).state).toBe('off');
    expect(jwtConfigured({ JWT_ISSUER: 'x', JWT_AUDIENCE: 'y' })).toBe(false);
    expect(jwtConfigured({ JWT_JWKS_URL: 'https://x.example/jwks' })).toBe(true);
    expect(jwtConfigured({ JWT_PRESET: 'cloudflare-access' })).toBe(true);
  });

  it('takes the documented defaults', () => {
    const read = settings(BASE);
    expect(read.jwksUrl.href).toBe('https://idp.example.com/.well-known/jwks.json');
    expect(read.audiences).toEqual(['agents']);
    expect(read.algorithms).toEqual(DEFAULT_ALGORITHMS);
    expect(DEFAULT_ALGORITHMS).toEqual(['RS256', 'ES256', 'EdDSA', 'PS256']);
    expect(read).toMatchObject({
      tenantClaim: null,
      defaultTenant: 'default',
      subjectClaim: 'sub',
      roleClaim: 'role',
      defaultRole: 'member',
    });
  });

  it('reads every variable', () => {
    const read = settings({
      ...BASE,
      JWT_AUDIENCE: ' agents , inspector ',
      JWT_ALGORITHMS: 'ES384,EdDSA',
      JWT_TENANT_CLAIM: 'org_id',
      JWT_DEFAULT_TENANT: 'acme',
      JWT_SUBJECT_CLAIM: 'email',
      JWT_ROLE_CLAIM: 'https://agents.example/roles',
      JWT_DEFAULT_ROLE: 'viewer',
    });
    expect(read).toMatchObject({
      audiences: ['agents', 'inspector'],
      algorithms: ['ES384', 'EdDSA'],
      tenantClaim: 'org_id',
      defaultTenant: 'acme',
      subjectClaim: 'email',
      roleClaim: 'https://agents.example/roles',
      defaultRole: 'viewer',
    });
  });

  it('requires the issuer and the audience whenever a key URL is set, naming the missing one', () => {
    expect(problem({ ...BASE, JWT_ISSUER: '' })).toMatch(/JWT_ISSUER is not set/);
    expect(problem({ ...BASE, JWT_AUDIENCE: ' , ' })).toMatch(/JWT_AUDIENCE is not set/);
  });

  it('refuses none and every HMAC algorithm in JWT_ALGORITHMS', () => {
    for (const algorithms of ['none', 'HS256', 'RS256,HS512', 'hs256', 'RS1']) {
      expect(problem({ ...BASE, JWT_ALGORITHMS: algorithms }), algorithms).toMatch(/only asymmetric algorithms/);
    }
  });

  it('wants an https key URL; http only for a development host EGRESS_ALLOW_HOSTS lists', () => {
    expect(problem({ ...BASE, JWT_JWKS_URL: 'http://idp.example.com/jwks' })).toMatch(/must be an https URL/);
    expect(problem({ ...BASE, JWT_JWKS_URL: 'http://127.0.0.1:9000/jwks' })).toMatch(/EGRESS_ALLOW_HOSTS/);
    expect(problem({ ...BASE, JWT_JWKS_URL: 'file:///etc/jwks' })).toMatch(/must be an https URL/);
    expect(problem({ ...BASE, JWT_JWKS_URL: 'not a url' })).toMatch(/not a URL/);
    expect(problem({ ...BASE, JWT_JWKS_URL: 'https://user:pw@idp.example.com/jwks' })).toMatch(/credentials/);
    const local = { ...BASE, JWT_JWKS_URL: 'http://127.0.0.1:9000/jwks', EGRESS_ALLOW_HOSTS: '127.0.0.1:9000' };
    expect(settings(local).jwksUrl.port).toBe('9000');
    expect(problem({ ...local, EGRESS_ALLOW_HOSTS: '127.0.0.1:9001' })).toMatch(/must be an https URL/);
  });

  it('refuses a default role or tenant that is not one, and claim names that are not names', () => {
    expect(problem({ ...BASE, JWT_DEFAULT_ROLE: 'owner' })).toMatch(/JWT_DEFAULT_ROLE must be one of/);
    expect(problem({ ...BASE, JWT_DEFAULT_TENANT: 'a tenant' })).toMatch(/JWT_DEFAULT_TENANT/);
    expect(problem({ ...BASE, JWT_ROLE_CLAIM: 'two words' })).toMatch(/JWT_ROLE_CLAIM is not a claim name/);
  });

  it('the Cloudflare Access preset derives the key URL and issuer from the team domain', () => {
    const access = { JWT_PRESET: 'cloudflare-access', JWT_AUDIENCE: 'aud-tag-123' };
    for (const domain of [
      'https://myteam.cloudflareaccess.com',
      'myteam.cloudflareaccess.com',
      'https://myteam.cloudflareaccess.com/',
    ]) {
      const read = settings({ ...access, CF_ACCESS_TEAM_DOMAIN: domain });
      expect(read.jwksUrl.href).toBe('https://myteam.cloudflareaccess.com/cdn-cgi/access/certs');
      expect(read.issuer).toBe('https://myteam.cloudflareaccess.com');
      expect(read.audiences).toEqual(['aud-tag-123']);
    }
    expect(problem(access)).toMatch(/CF_ACCESS_TEAM_DOMAIN is not set/);
    expect(problem({ ...access, CF_ACCESS_TEAM_DOMAIN: 'http://myteam.cloudflareaccess.com' })).toMatch(/https origin/);
    expect(problem({ ...access, CF_ACCESS_TEAM_DOMAIN: 'https://myteam.cloudflareaccess.com/x' })).toMatch(/origin/);
    const team = { ...access, CF_ACCESS_TEAM_DOMAIN: 'myteam.cloudflareaccess.com' };
    expect(problem({ ...team, JWT_AUDIENCE: '' })).toMatch(/JWT_AUDIENCE is not set.*AUD tag/);
    expect(problem({ ...team, JWT_ISSUER: 'https://evil.example' })).toMatch(/JWT_ISSUER must not be set/);
    expect(problem({ ...team, JWT_PRESET: 'okta' })).toMatch(/JWT_PRESET "okta" is unknown/);
  });
});

describe('IDN-3, IDN-4: claims to a principal', () => {
  const read = settings(BASE);

  it('maps subject, default tenant and default role', () => {
    expect(principalFromClaims({ sub: 'alice' }, read)).toEqual({
      ok: true,
      principal: { tenant: 'default', subject: 'jwt:alice', role: 'member', via: 'jwt' },
    });
  });

  it('takes the highest role of a list; a single name; refuses anything else', () => {
    expect(roleFromClaim('viewer')).toBe('viewer');
    expect(roleFromClaim(['viewer', 'approver', 'member'])).toBe('approver');
    expect(roleFromClaim(['admin'])).toBe('admin');
    for (const value of ['Admin', 'root', '', [], ['member', 'root'], [1], 3, null, { role: 'admin' }]) {
      expect(roleFromClaim(value), JSON.stringify(value)).toBeNull();
    }
    const refused = principalFromClaims({ sub: 'alice', role: 'owner' }, read);
    expect(refused).toMatchObject({
      ok: false,
      code: 'invalid_token',
      message: expect.stringMatching(/names no role/),
    });
  });

  it('a configured tenant claim must be present and a tenant name', () => {
    const tenants = settings({ ...BASE, JWT_TENANT_CLAIM: 'org' });
    expect(principalFromClaims({ sub: 'a', org: 'acme' }, tenants)).toMatchObject({ principal: { tenant: 'acme' } });
    for (const org of [undefined, '', 'a/b', 'x'.repeat(200), ['acme'], 7]) {
      expect(principalFromClaims({ sub: 'a', org }, tenants), JSON.stringify(org)).toMatchObject({
        ok: false,
        code: 'invalid_token',
      });
    }
  });

  it('reads only the claims themselves, never what Object inherits', () => {
    const inherited = settings({ ...BASE, JWT_SUBJECT_CLAIM: 'constructor', JWT_ROLE_CLAIM: 'toString' });
    expect(principalFromClaims({}, inherited)).toMatchObject({ ok: false, code: 'invalid_token' });
    expect(principalFromClaims({ constructor: 'bob' }, inherited)).toMatchObject({
      principal: { subject: 'jwt:bob', role: 'member' },
    });
  });

  it('a subject becomes a header-safe id, one-to-one, and never a key holder', () => {
    const subjectOf = (sub: unknown) => {
      const resolution = principalFromClaims({ sub }, read);
      return resolution.ok ? resolution.principal.subject : null;
    };
    expect(subjectOf('admin')).toBe('jwt:admin');
    expect(subjectOf('u_0123456789abcdef0123456789abcdef')).toBe('jwt:u_0123456789abcdef0123456789abcdef');
    expect(subjectOf('zoë@example.com')).toBe('jwt:zo%C3%AB@example.com');
    expect(subjectOf('zo%C3%AB@example.com')).toBe('jwt:zo%25C3%25AB@example.com');
    for (const bad of ['', 'a\nb', 'a\u0085b', '\ud800', 'x'.repeat(257), 42, ['alice']]) {
      expect(subjectOf(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
