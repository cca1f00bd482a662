/**
 * Sign-in with an identity provider's JWTs, as the Worker's variables configure it (IDN-3): where
 * the provider's keys are (`JWT_JWKS_URL`), whose tokens are accepted (`JWT_ISSUER`, `JWT_AUDIENCE`),
 * by which algorithms (`JWT_ALGORITHMS`), and which claims name the tenant, the subject and the role.
 * `JWT_PRESET=cloudflare-access` derives the key URL and the issuer from `CF_ACCESS_TEAM_DOMAIN`.
 *
 * A half-configured provider is never an open door: with a key URL set, a missing issuer or audience,
 * an algorithm that is not asymmetric, or a key URL the runtime may not fetch is a misconfiguration,
 * and a token offered to it is answered 503 with a message naming what to fix.
 */
import { canonicalHost, type EgressPolicy, egressPolicy } from '../../engine/egress/index.js';
import { DEFAULT_TENANT, isRole, type Role } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';

export interface JwtSettings {
  /** Where the provider publishes its public keys (a JSON Web Key Set). */
  jwksUrl: URL;
  /** The `iss` every token must carry. */
  issuer: string;
  /** The `aud` values accepted: a token naming any of them is for this Worker. */
  audiences: string[];
  algorithms: string[];
  /** The claim naming the tenant, or null: every subject then belongs to `defaultTenant`. */
  tenantClaim: string | null;
  defaultTenant: string;
  subjectClaim: string;
  roleClaim: string;
  /** The role of a token without the role claim. */
  defaultRole: Role;
  /** The egress policy the key set is fetched under (`EGRESS_ALLOW_HOSTS`). */
  egress: EgressPolicy;
}

export type JwtConfiguration =
  | { state: 'off' }
  | { state: 'ready'; settings: JwtSettings }
  | { state: 'misconfigured'; message: string };

/** The asymmetric algorithms a provider may sign with. `none` and the HMAC family never: see below. */
const ASYMMETRIC = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);
export const DEFAULT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA', 'PS256'];

/** A tenant or claim name as the runtime accepts it: short, printable, no separators that mean something. */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const CLAIM_PATTERN = /^[\x21-\x7e]{1,128}$/;

const PRESET_ACCESS = 'cloudflare-access';
/** Where Cloudflare Access publishes a team's signing keys. */
const ACCESS_CERTS_PATH = '/cdn-cgi/access/certs';

type Variables = Pick<
  RuntimeEnv,
  | 'JWT_JWKS_URL'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'JWT_ALGORITHMS'
  | 'JWT_TENANT_CLAIM'
  | 'JWT_DEFAULT_TENANT'
  | 'JWT_SUBJECT_CLAIM'
  | 'JWT_ROLE_CLAIM'
  | 'JWT_DEFAULT_ROLE'
  | 'JWT_PRESET'
  | 'CF_ACCESS_TEAM_DOMAIN'
  | 'EGRESS_ALLOW_HOSTS'
>;

const NAMES: (keyof Variables)[] = [
  'JWT_JWKS_URL',
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'JWT_ALGORITHMS',
  'JWT_TENANT_CLAIM',
  'JWT_DEFAULT_TENANT',
  'JWT_SUBJECT_CLAIM',
  'JWT_ROLE_CLAIM',
  'JWT_DEFAULT_ROLE',
  'JWT_PRESET',
  'CF_ACCESS_TEAM_DOMAIN',
  'EGRESS_ALLOW_HOSTS',
];

class Misconfigured extends Error {}

function text(value: string | undefined): string {
  return (value ?? '').trim();
}

function list(value: string | undefined): string[] {
  return text(value)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** Whether the Worker's variables turn JWT sign-in on (correctly or not). */
export function jwtConfigured(env: Variables): boolean {
  return text(env.JWT_JWKS_URL) !== '' || text(env.JWT_PRESET) !== '';
}

let cached: { source: string; configuration: JwtConfiguration } | null = null;

/** The JWT settings of these variables, read once per distinct set of values. */
export function jwtConfiguration(env: Variables): JwtConfiguration {
  const source = JSON.stringify(NAMES.map((name) => env[name] ?? null));
  if (cached?.source !== source) cached = { source, configuration: readConfiguration(env) };
  return cached.configuration;
}

function readConfiguration(env: Variables): JwtConfiguration {
  if (!jwtConfigured(env)) return { state: 'off' };
  try {
    return { state: 'ready', settings: readSettings(env) };
  } catch (error) {
    if (!(error instanceof Misconfigured)) throw error;
    return { state: 'misconfigured', message: `sign-in with JWTs is misconfigured: ${error.message}` };
  }
}

function readSettings(env: Variables): JwtSettings {
  let egress: EgressPolicy;
  try {
    egress = egressPolicy(env.EGRESS_ALLOW_HOSTS ?? '');
  } catch (error) {
    throw new Misconfigured((error as Error).message);
  }
  const { jwksUrl, issuer } = keySource(env);
  const audiences = list(env.JWT_AUDIENCE);
  if (audiences.length === 0) {
    throw new Misconfigured(
      'JWT_AUDIENCE is not set: name the audience your tokens are issued for (for Cloudflare Access, the application AUD tag)',
    );
  }
  return {
    jwksUrl: fetchableKeyUrl(jwksUrl, egress),
    issuer,
    audiences,
    algorithms: algorithms(env.JWT_ALGORITHMS),
    tenantClaim: text(env.JWT_TENANT_CLAIM) === '' ? null : claimName('JWT_TENANT_CLAIM', env.JWT_TENANT_CLAIM),
    defaultTenant: defaultTenant(env.JWT_DEFAULT_TENANT),
    subjectClaim: text(env.JWT_SUBJECT_CLAIM) === '' ? 'sub' : claimName('JWT_SUBJECT_CLAIM', env.JWT_SUBJECT_CLAIM),
    roleClaim: text(env.JWT_ROLE_CLAIM) === '' ? 'role' : claimName('JWT_ROLE_CLAIM', env.JWT_ROLE_CLAIM),
    defaultRole: defaultRole(env.JWT_DEFAULT_ROLE),
    egress,
  };
}

/** The key URL and issuer: written out, or derived from the Cloudflare Access team domain. */
function keySource(env: Variables): { jwksUrl: string; issuer: string } {
  const preset = text(env.JWT_PRESET);
  if (preset === '') {
    const jwksUrl = text(env.JWT_JWKS_URL);
    const issuer = text(env.JWT_ISSUER);
    if (issuer === '') {
      throw new Misconfigured("JWT_ISSUER is not set: name the issuer (the tokens' iss) JWT_JWKS_URL's keys sign for");
    }
    return { jwksUrl, issuer };
  }
  if (preset !== PRESET_ACCESS)
    throw new Misconfigured(`JWT_PRESET "${preset}" is unknown (the one preset is ${PRESET_ACCESS})`);
  const written = (['JWT_JWKS_URL', 'JWT_ISSUER'] as const).filter((name) => text(env[name]) !== '');
  if (written.length > 0) {
    throw new Misconfigured(
      `${written.join(' and ')} must not be set with JWT_PRESET=${PRESET_ACCESS}, which derives them`,
    );
  }
  const team = accessTeamOrigin(text(env.CF_ACCESS_TEAM_DOMAIN));
  return { jwksUrl: `${team}${ACCESS_CERTS_PATH}`, issuer: team };
}

/** `https://myteam.cloudflareaccess.com` (or the bare host name) as an origin without a trailing slash. */
function accessTeamOrigin(domain: string): string {
  if (domain === '') {
    throw new Misconfigured(
      `CF_ACCESS_TEAM_DOMAIN is not set: JWT_PRESET=${PRESET_ACCESS} needs your team domain, e.g. https://myteam.cloudflareaccess.com`,
    );
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(domain) ? domain : `https://${domain}`);
  } catch {
    throw new Misconfigured('CF_ACCESS_TEAM_DOMAIN is not a domain, e.g. https://myteam.cloudflareaccess.com');
  }
  if (url.protocol !== 'https:' || url.pathname !== '/' || url.search !== '' || url.username !== '') {
    throw new Misconfigured(
      'CF_ACCESS_TEAM_DOMAIN must be an https origin only, e.g. https://myteam.cloudflareaccess.com',
    );
  }
  return url.origin;
}

/**
 * The key URL, which must be https: a key set fetched in the clear could be swapped on the way, and
 * whoever swaps it signs in as anyone. A development host listed in `EGRESS_ALLOW_HOSTS` (a local
 * key server on 127.0.0.1) may use http. The egress policy checks the address itself at each fetch.
 */
function fetchableKeyUrl(value: string, egress: EgressPolicy): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Misconfigured('JWT_JWKS_URL is not a URL');
  }
  if (url.username !== '' || url.password !== '') throw new Misconfigured('JWT_JWKS_URL must not hold credentials');
  const host = canonicalHost(url);
  const listed = egress.allowHosts.has(host) || egress.allowHosts.has(`${host}:${url.port || '80'}`);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && listed)) return url;
  throw new Misconfigured(
    'JWT_JWKS_URL must be an https URL (http only for a development host listed in EGRESS_ALLOW_HOSTS)',
  );
}

/**
 * The algorithms accepted. Only asymmetric ones: `none` has no signature at all, and an HMAC (HS256,
 * ...) verified with a key meant to be public lets anyone who read the public key sign (the
 * algorithm-confusion attack), so neither may be configured.
 */
function algorithms(value: string | undefined): string[] {
  const listed = list(value);
  if (listed.length === 0) return DEFAULT_ALGORITHMS;
  const refused = listed.filter((algorithm) => !ASYMMETRIC.has(algorithm));
  if (refused.length > 0) {
    throw new Misconfigured(
      `JWT_ALGORITHMS may list only asymmetric algorithms (${[...ASYMMETRIC].join(', ')}), not ${refused.join(', ')}`,
    );
  }
  return listed;
}

function claimName(variable: string, value: string | undefined): string {
  const name = text(value);
  if (!CLAIM_PATTERN.test(name)) throw new Misconfigured(`${variable} is not a claim name`);
  return name;
}

function defaultTenant(value: string | undefined): string {
  const tenant = text(value);
  if (tenant === '') return DEFAULT_TENANT;
  if (!TENANT_PATTERN.test(tenant)) {
    throw new Misconfigured(
      'JWT_DEFAULT_TENANT must be 1 to 128 letters, digits and . _ : @ - (starting with a letter or digit)',
    );
  }
  return tenant;
}

function defaultRole(value: string | undefined): Role {
  const role = text(value);
  if (role === '') return 'member';
  if (!isRole(role)) throw new Misconfigured('JWT_DEFAULT_ROLE must be one of viewer, member, approver, admin');
  return role;
}
