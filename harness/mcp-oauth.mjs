/**
 * A small OAuth 2.1 authorization server and protected-resource guard, as the MCP authorization spec
 * (2025-03-26, 2025-06-18) has a remote MCP server use them: protected resource metadata (RFC 9728)
 * points to the authorization server, whose metadata (RFC 8414) lists its endpoints; clients register
 * themselves (RFC 7591), run the authorization code flow with PKCE S256 (RFC 7636), name the MCP
 * server as the resource (RFC 8707), and send the access token as a bearer token (RFC 6750).
 *
 * There is no login page: `/authorize` approves at once with a 302 to the client's redirect URI, so
 * a test follows the redirect by hand. Everything is in memory and recorded, so tests can assert the
 * flow the runtime ran, and that the tokens handed out never show up where they must not.
 * Types are in mcp-oauth.d.mts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { headerValue, sendJson } from './mcp-http.mjs';

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {import('@modelcontextprotocol/sdk/server/auth/types.js').AuthInfo} AuthInfo
 * @typedef {import('@modelcontextprotocol/sdk/shared/auth.js').OAuthClientInformationFull} RegisteredClient
 *
 * @typedef {object} RecordedAuthorizeRequest
 * @property {Record<string, string>} params The query parameters as received.
 * @property {string | undefined} error The OAuth error answered, if any.
 *
 * @typedef {object} RecordedTokenRequest
 * @property {string} grantType
 * @property {string | undefined} clientId
 * @property {boolean | undefined} pkceVerified For `authorization_code`: whether the code verifier
 *   matched the S256 challenge (undefined when the request failed before the check).
 * @property {string | undefined} resource The RFC 8707 `resource` parameter.
 * @property {string | undefined} error The OAuth error answered, if any.
 *
 * @typedef {{ clientId: string, redirectUri: string, redirectUriGiven: boolean, challenge: string,
 *   scope: string | undefined, resource: string, expiresAt: number, used: boolean, issued: string[] }} CodeGrant
 * @typedef {{ clientId: string, scope: string | undefined, resource: string, expiresAt: number }} AccessGrant
 * @typedef {{ clientId: string, scope: string | undefined, resource: string }} RefreshGrant
 *
 * @typedef {{ ok: true, authInfo: AuthInfo } | { ok: false, error: string | undefined, description: string }} Authentication
 */

const CODE_TTL_MS = 60_000;
const AUTH_METHODS = ['none', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/**
 * @param {{ origin: string, resourcePath?: string, accessTokenTtlSeconds?: number }} options
 */
export function createOAuthAuthority(options) {
  const { origin } = options;
  const resource = `${origin}${options.resourcePath ?? '/mcp'}`;
  const resourceMetadataUrl = `${origin}/.well-known/oauth-protected-resource`;
  const ttlSeconds = options.accessTokenTtlSeconds ?? 3600;
  const resourceMetadataPaths = [
    '/.well-known/oauth-protected-resource',
    `/.well-known/oauth-protected-resource${options.resourcePath ?? '/mcp'}`,
  ];

  /** @type {Map<string, RegisteredClient>} */
  const clients = new Map();
  /** @type {Map<string, CodeGrant>} */
  const codes = new Map();
  /** @type {Map<string, AccessGrant>} */
  const accessTokens = new Map();
  /** @type {Map<string, RefreshGrant>} */
  const refreshTokens = new Map();

  /** @type {RegisteredClient[]} */
  const registrations = [];
  /** @type {string[]} */
  const tokensIssued = [];
  /** @type {RecordedAuthorizeRequest[]} */
  const authorizeRequests = [];
  /** @type {RecordedTokenRequest[]} */
  const tokenRequests = [];

  /**
   * Answers the discovery and authorization endpoints; false for any other path.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {URL} url
   * @param {string} rawBody
   */
  function route(req, res, url, rawBody) {
    const endpoint = endpoints.get(url.pathname);
    if (!endpoint) return false;
    if (req.method !== endpoint.method) {
      const allow = endpoint.method;
      sendJson(res, 405, { error: 'invalid_request', error_description: `Use ${allow}.` }, { allow });
      return true;
    }
    endpoint.handle(req, res, url, rawBody);
    return true;
  }

  /**
   * RFC 9728 §3.2: the resource, and the authorization servers that issue tokens for it. Served at the
   * root well-known URL (named in the WWW-Authenticate challenge) and at its path-suffixed form
   * (§3.1), which clients try first when they have no challenge to go by.
   * @param {IncomingMessage} _req
   * @param {ServerResponse} res
   */
  function protectedResourceMetadata(_req, res) {
    sendJson(res, 200, { resource, authorization_servers: [origin], bearer_methods_supported: ['header'] });
  }

  /**
   * RFC 8414 §2 and §3: the issuer is the origin, so the metadata lives at the root well-known URL.
   * @param {IncomingMessage} _req
   * @param {ServerResponse} res
   */
  function authorizationServerMetadata(_req, res) {
    sendJson(res, 200, {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ['code'],
      grant_types_supported: GRANT_TYPES,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
    });
  }

  /**
   * RFC 7591 §3.1 and §3.2.1: dynamic client registration. A client that leaves out
   * `token_endpoint_auth_method` is registered as a public client (`none`), which §3.2.1 allows a
   * server to decide; a secret is issued only to one asking for `client_secret_post`.
   * @param {IncomingMessage} _req
   * @param {ServerResponse} res
   * @param {URL} _url
   * @param {string} rawBody
   */
  function register(_req, res, _url, rawBody) {
    /** @type {unknown} */
    let body;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return sendJson(res, 400, { error: 'invalid_client_metadata', error_description: 'The body is not JSON.' });
    }
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success) {
      return sendJson(res, 400, { error: 'invalid_client_metadata', error_description: parsed.error.message });
    }
    const metadata = parsed.data;
    const authMethod = metadata.token_endpoint_auth_method ?? 'none';
    const grantTypes = metadata.grant_types ?? ['authorization_code'];
    const responseTypes = metadata.response_types ?? ['code'];
    /** @type {[string, string] | undefined} */
    let problem;
    if (!AUTH_METHODS.includes(authMethod)) {
      problem = ['invalid_client_metadata', `token_endpoint_auth_method ${authMethod} is not supported.`];
    } else if (grantTypes.some((grant) => !GRANT_TYPES.includes(grant))) {
      problem = ['invalid_client_metadata', 'A grant type is not supported.'];
    } else if (responseTypes.some((type) => type !== 'code')) {
      problem = ['invalid_client_metadata', 'Only the code response type is supported.'];
    } else if (metadata.redirect_uris.length === 0) {
      problem = ['invalid_redirect_uri', 'redirect_uris is required.'];
    } else if (metadata.redirect_uris.some((uri) => new URL(uri).hash !== '')) {
      problem = ['invalid_redirect_uri', 'A redirect URI must not have a fragment (RFC 6749 §3.1.2).'];
    }
    if (problem) return sendJson(res, 400, { error: problem[0], error_description: problem[1] });

    const confidential = authMethod === 'client_secret_post';
    /** @type {RegisteredClient} */
    const client = {
      ...metadata,
      token_endpoint_auth_method: authMethod,
      grant_types: grantTypes,
      response_types: responseTypes,
      client_id: `mcp_client_${secret(12)}`,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      ...(confidential ? { client_secret: `mcp_secret_${secret(24)}`, client_secret_expires_at: 0 } : {}),
    };
    clients.set(client.client_id, client);
    registrations.push(client);
    sendJson(res, 201, client, { 'cache-control': 'no-store' });
  }

  /**
   * OAuth 2.1 §4.1.1 (RFC 6749 §4.1.1 with PKCE required), RFC 7636 §4.3, RFC 8707 §2. An unknown
   * client or redirect URI is answered 400 here, never redirected (RFC 6749 §4.1.2.1); other errors go
   * back to the redirect URI. The "user" approves at once.
   * @param {IncomingMessage} _req
   * @param {ServerResponse} res
   * @param {URL} url
   */
  function authorize(_req, res, url) {
    const params = Object.fromEntries(url.searchParams);
    /** @type {RecordedAuthorizeRequest} */
    const record = { params, error: undefined };
    authorizeRequests.push(record);

    const client = params.client_id === undefined ? undefined : clients.get(params.client_id);
    const registered = client?.redirect_uris ?? [];
    const redirectUri = params.redirect_uri ?? (registered.length === 1 ? registered[0] : undefined);
    if (!client || !redirectUri || !registered.includes(redirectUri)) {
      record.error = 'invalid_request';
      const description = client ? 'redirect_uri is not registered for this client.' : 'Unknown client_id.';
      return sendJson(res, 400, { error: 'invalid_request', error_description: description });
    }

    /** @type {[string, string] | undefined} */
    let failure;
    if (params.response_type !== 'code') failure = ['unsupported_response_type', 'response_type must be code.'];
    else if (!params.code_challenge) failure = ['invalid_request', 'code_challenge is required (PKCE).'];
    else if (params.code_challenge_method !== 'S256') {
      failure = ['invalid_request', 'code_challenge_method must be S256.'];
    } else if (params.resource !== undefined && params.resource !== resource) {
      failure = ['invalid_target', `resource must be ${resource}.`];
    }

    const location = new URL(redirectUri);
    if (failure) {
      record.error = failure[0];
      location.searchParams.set('error', failure[0]);
      location.searchParams.set('error_description', failure[1]);
    } else {
      const code = `mcp_code_${secret(24)}`;
      codes.set(code, {
        clientId: client.client_id,
        redirectUri,
        redirectUriGiven: params.redirect_uri !== undefined,
        challenge: String(params.code_challenge),
        scope: params.scope,
        resource,
        expiresAt: Date.now() + CODE_TTL_MS,
        used: false,
        issued: [],
      });
      location.searchParams.set('code', code);
    }
    if (params.state !== undefined) location.searchParams.set('state', params.state);
    res.writeHead(302, { location: location.href, 'cache-control': 'no-store' });
    res.end();
  }

  /**
   * RFC 6749 §3.2 and §5: the token endpoint, form-encoded in, JSON out, never cached. Grants:
   * `authorization_code` (§4.1.3, with the RFC 7636 §4.6 verifier check) and `refresh_token` (§6, the
   * refresh token rotated on every use, as OAuth 2.1 §4.3.1 asks for public clients).
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {URL} _url
   * @param {string} rawBody
   */
  function token(req, res, _url, rawBody) {
    const form = new URLSearchParams(rawBody);
    const params = Object.fromEntries(form);
    /** @type {RecordedTokenRequest} */
    const record = {
      grantType: params.grant_type ?? '',
      clientId: params.client_id,
      pkceVerified: undefined,
      resource: params.resource,
      error: undefined,
    };
    tokenRequests.push(record);
    /** @param {number} status @param {string} error @param {string} description */
    const fail = (status, error, description) => {
      record.error = error;
      sendJson(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
    };

    const type = (headerValue(req, 'content-type') ?? '').split(';')[0]?.trim();
    if (type !== 'application/x-www-form-urlencoded') {
      return fail(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    // §2.3.1 client authentication: a public client names itself, a confidential one adds its secret.
    const client = params.client_id === undefined ? undefined : clients.get(params.client_id);
    if (!client) return fail(401, 'invalid_client', 'Unknown client_id.');
    if (
      client.token_endpoint_auth_method === 'client_secret_post' &&
      !sameSecret(params.client_secret, client.client_secret)
    ) {
      return fail(401, 'invalid_client', 'Client authentication failed.');
    }
    if (params.resource !== undefined && params.resource !== resource) {
      return fail(400, 'invalid_target', `resource must be ${resource}.`);
    }

    if (params.grant_type === 'authorization_code') {
      const grant = params.code === undefined ? undefined : codes.get(params.code);
      if (!grant || grant.clientId !== client.client_id) return fail(400, 'invalid_grant', 'Unknown code.');
      if (grant.used) {
        // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
        for (const issued of grant.issued) {
          accessTokens.delete(issued);
          refreshTokens.delete(issued);
        }
        return fail(400, 'invalid_grant', 'The code was already used.');
      }
      if (Date.now() >= grant.expiresAt) return fail(400, 'invalid_grant', 'The code expired.');
      if ((grant.redirectUriGiven || params.redirect_uri !== undefined) && params.redirect_uri !== grant.redirectUri) {
        return fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
      }
      record.pkceVerified = params.code_verifier !== undefined && pkceMatches(params.code_verifier, grant.challenge);
      if (!record.pkceVerified) return fail(400, 'invalid_grant', 'code_verifier does not match code_challenge.');
      grant.used = true;
      const tokens = issue(client.client_id, grant.scope, grant.resource);
      grant.issued.push(tokens.access_token, tokens.refresh_token);
      return sendTokens(res, tokens);
    }

    if (params.grant_type === 'refresh_token') {
      const grant = params.refresh_token === undefined ? undefined : refreshTokens.get(params.refresh_token);
      if (!grant || grant.clientId !== client.client_id) {
        return fail(400, 'invalid_grant', 'Unknown, rotated or revoked refresh token.');
      }
      refreshTokens.delete(String(params.refresh_token));
      return sendTokens(res, issue(client.client_id, grant.scope, grant.resource));
    }

    return fail(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }

  /**
   * @param {string} clientId
   * @param {string | undefined} scope
   * @param {string} audience
   */
  function issue(clientId, scope, audience) {
    const access = `mcp_at_${secret(32)}`;
    const refresh = `mcp_rt_${secret(32)}`;
    accessTokens.set(access, { clientId, scope, resource: audience, expiresAt: Date.now() + ttlSeconds * 1000 });
    refreshTokens.set(refresh, { clientId, scope, resource: audience });
    tokensIssued.push(access, refresh);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ttlSeconds,
      refresh_token: refresh,
      ...(scope ? { scope } : {}),
    };
  }

  /**
   * RFC 6750 §2.1: the token comes in the Authorization header only (the MCP spec forbids the query
   * string), and must be one this server issued for this resource (MCP spec, Token Handling).
   * @param {IncomingMessage} req
   * @returns {Authentication}
   */
  function authenticate(req) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req, 'authorization') ?? '');
    if (!match) return { ok: false, error: undefined, description: 'A bearer token is required.' };
    const value = String(match[1]);
    const grant = accessTokens.get(value);
    if (!grant) return { ok: false, error: 'invalid_token', description: 'Unknown or revoked access token.' };
    if (Date.now() >= grant.expiresAt) {
      return { ok: false, error: 'invalid_token', description: 'The access token expired.' };
    }
    if (grant.resource !== resource) {
      return { ok: false, error: 'invalid_token', description: 'The access token is for another resource.' };
    }
    return {
      ok: true,
      authInfo: {
        token: value,
        clientId: grant.clientId,
        scopes: grant.scope ? grant.scope.split(' ') : [],
        expiresAt: Math.floor(grant.expiresAt / 1000),
        resource: new URL(resource),
      },
    };
  }

  /**
   * RFC 6750 §3 and RFC 9728 §5.1: 401 with a challenge naming the resource metadata. A request with
   * no token gets no error code (§3.1); a bad or expired one gets `invalid_token`.
   * @param {ServerResponse} res
   * @param {{ error: string | undefined, description: string }} failure
   */
  function challenge(res, failure) {
    const parts = failure.error ? [`error="${failure.error}"`, `error_description="${failure.description}"`] : [];
    parts.push(`resource_metadata="${resourceMetadataUrl}"`);
    sendJson(
      res,
      401,
      { error: failure.error ?? 'unauthorized', error_description: failure.description },
      { 'www-authenticate': `Bearer ${parts.join(', ')}` },
    );
  }

  /** @type {Map<string, { method: 'GET' | 'POST', handle: (req: IncomingMessage, res: ServerResponse, url: URL, rawBody: string) => void }>} */
  const endpoints = new Map([
    ...resourceMetadataPaths.map(
      (path) => /** @type {const} */ ([path, { method: 'GET', handle: protectedResourceMetadata }]),
    ),
    ['/.well-known/oauth-authorization-server', { method: 'GET', handle: authorizationServerMetadata }],
    ['/register', { method: 'POST', handle: register }],
    ['/authorize', { method: 'GET', handle: authorize }],
    ['/token', { method: 'POST', handle: token }],
  ]);

  return {
    resource,
    resourceMetadataUrl,
    route,
    authenticate,
    challenge,
    registrations,
    tokensIssued,
    authorizeRequests,
    tokenRequests,
    /** Every secret handed out: tokens, authorization codes, client secrets. */
    secrets() {
      return [
        ...tokensIssued,
        ...codes.keys(),
        ...registrations.flatMap((client) => (client.client_secret ? [client.client_secret] : [])),
      ];
    },
    /** Ends every access token's life now; refresh tokens stay good. */
    expireTokens() {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    /** Forgets every access and refresh token, so only a new authorization gets in. */
    revokeTokens() {
      accessTokens.clear();
      refreshTokens.clear();
    },
  };
}

/**
 * RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge, for a verifier of 43 to
 * 128 unreserved characters (§4.1).
 * @param {string} verifier
 * @param {string} challenge
 */
export function pkceMatches(verifier, challenge) {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  return sameSecret(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}

/**
 * @param {string | undefined} given
 * @param {string | undefined} expected
 */
function sameSecret(given, expected) {
  if (given === undefined || expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** @param {number} bytes */
function secret(bytes) {
  return randomBytes(bytes).toString('base64url');
}

/** @param {ServerResponse} res @param {object} tokens */
function sendTokens(res, tokens) {
  // RFC 6749 §5.1: token responses must not be cached.
  sendJson(res, 200, tokens, { 'cache-control': 'no-store', pragma: 'no-cache' });
}
