/**
 * The OAuth surface of `/mcp` as the OpenAPI document declares it (IDN-7). Every route is served
 * without a key — the metadata documents, the library's token and registration endpoints, and the
 * authorization page a person signs in on — and answers 404 `oauth_not_configured` when `OAUTH_KV`
 * is not bound. The bodies are the OAuth specifications' own, described here as loose objects.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { failure, json } from '../contract/index.js';
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  AUTHORIZE_PATH,
  PROTECTED_RESOURCE_METADATA_PATH,
  REGISTER_PATH,
  RESOURCE_PATH,
  TOKEN_PATH,
} from './oauth-paths.js';

const NOT_SET_UP = failure('`oauth_not_configured`: no KV namespace is bound as `OAUTH_KV`');
const OAuthErrorBody = z
  .looseObject({ error: z.string(), error_description: z.string().optional() })
  .openapi('OAuthError');
const oauthError = (description: string) => json(OAuthErrorBody, description);
const Page = z.string().openapi({ description: 'An HTML page' });
const html = (description: string) => ({ description, content: { 'text/html': { schema: Page } } });

const ProtectedResourceMetadata = z
  .looseObject({
    resource: z.string().describe('`<origin>/mcp`: the audience every token issued here is bound to'),
    authorization_servers: z.array(z.string()).describe('This origin, the issuer'),
    bearer_methods_supported: z.array(z.string()),
  })
  .openapi('ProtectedResourceMetadata');

const AuthorizationServerMetadata = z
  .looseObject({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string().optional(),
    code_challenge_methods_supported: z.array(z.string()),
  })
  .openapi('AuthorizationServerMetadata');

const resourceMetadataRoute = (path: string, operationId: string, summary: string) =>
  createRoute({
    method: 'get',
    path,
    operationId,
    tags: ['oauth'],
    summary,
    security: [],
    responses: { 200: json(ProtectedResourceMetadata, 'RFC 9728 metadata of `/mcp`'), 404: NOT_SET_UP },
  });

export const mcpResourceMetadata = resourceMetadataRoute(
  `${PROTECTED_RESOURCE_METADATA_PATH}${RESOURCE_PATH}`,
  'oauthProtectedResourceMetadata',
  'The protected resource metadata of `/mcp`, named by its 401 challenge (IDN-7)',
);
export const rootResourceMetadata = resourceMetadataRoute(
  PROTECTED_RESOURCE_METADATA_PATH,
  'oauthProtectedResourceMetadataRoot',
  'The same document at the path MCP clients fall back to (IDN-7)',
);

export const authorizationServerMetadata = createRoute({
  method: 'get',
  path: AUTHORIZATION_SERVER_METADATA_PATH,
  operationId: 'oauthAuthorizationServerMetadata',
  tags: ['oauth'],
  summary: 'RFC 8414 metadata of the authorization server that issues tokens for `/mcp` (IDN-7)',
  security: [],
  responses: { 200: json(AuthorizationServerMetadata, 'Endpoints, grant types, PKCE methods'), 404: NOT_SET_UP },
});

const form = { 'application/x-www-form-urlencoded': { schema: z.record(z.string(), z.string()) } };

export const oauthToken = createRoute({
  method: 'post',
  path: TOKEN_PATH,
  operationId: 'oauthToken',
  tags: ['oauth'],
  summary: 'Exchange an authorization code (with its PKCE verifier) or a refresh token; revoke a token (IDN-7)',
  security: [],
  request: { body: { required: true, content: form } },
  responses: {
    200: json(z.looseObject({ access_token: z.string(), token_type: z.string() }), 'The tokens'),
    400: oauthError('`invalid_grant` (a wrong verifier or redirect URI, a used or expired code), `invalid_request`'),
    401: oauthError('`invalid_client`'),
    404: NOT_SET_UP,
  },
});

export const oauthRegister = createRoute({
  method: 'post',
  path: REGISTER_PATH,
  operationId: 'oauthRegister',
  tags: ['oauth'],
  summary: 'Dynamic client registration, RFC 7591 (IDN-7)',
  security: [],
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.looseObject({ redirect_uris: z.array(z.string()) }) } },
    },
  },
  responses: {
    201: json(z.looseObject({ client_id: z.string() }), 'The registered client'),
    400: oauthError('`invalid_client_metadata`, `invalid_redirect_uri`'),
    404: NOT_SET_UP,
  },
});

export const oauthAuthorizePage = createRoute({
  method: 'get',
  path: AUTHORIZE_PATH,
  operationId: 'oauthAuthorize',
  tags: ['oauth'],
  summary: 'The page where a person signs in with a key or token and allows an MCP client (IDN-7)',
  description:
    'Query as OAuth 2.1 has it: `response_type=code`, `client_id`, `redirect_uri`, `code_challenge` ' +
    '(S256), `state`, `resource`. Sets the `__Host-` cookie the form must come back with.',
  security: [],
  responses: {
    200: html('The sign-in and consent page'),
    302: { description: 'Back to the client with an error, for a request whose client and redirect URI are known' },
    400: html('A request that cannot be shown: unknown client, unregistered redirect URI, no PKCE'),
    404: html('OAuth is not set up'),
  },
});

export const oauthAuthorizeAnswer = createRoute({
  method: 'post',
  path: AUTHORIZE_PATH,
  operationId: 'oauthAuthorizeAnswer',
  tags: ['oauth'],
  summary: "The page's form: sign in and allow, or deny (IDN-7)",
  description: 'Fields `handle` (from the page), `decision` (`approve` or `deny`) and `credential`.',
  security: [],
  request: { body: { required: true, content: form } },
  responses: {
    302: { description: 'To the client: with `code` when allowed, `error=access_denied` when denied' },
    400: html('The form is not bound to this browser, was used already or expired'),
    401: html('The key or token did not sign in: the page again'),
    404: html('OAuth is not set up'),
  },
});
