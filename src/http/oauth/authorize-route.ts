/**
 * The authorization endpoint (IDN-7), a person's browser on both requests.
 *
 * GET: the library checks the request (a registered client, its exact redirect URI, a PKCE S256
 * challenge, this resource) and keeps it server-side; the page gets a one-time handle bound to a
 * `__Host-` cookie of this browser, which the form posts back: a forged form from another site has
 * neither, and a page opened in another browser cannot be completed here.
 *
 * POST: Deny ends the request with `error=access_denied` at the client. Allow spends the handle
 * first (the cookie must match, once, within ten minutes), then signs the person in with what they
 * pasted, through the same sign-in as every API request. A credential that does not sign in gets
 * the page again with a fresh handle; one that does completes the authorization with the principal
 * as the grant's props, and the browser goes to the client with the code.
 */
import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import type { Context } from 'hono';
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import { authorizePage, authorizePagePolicy, messagePage } from './authorize-page.js';
import { grantProps, grantUserId } from './grant-principal.js';
import { oauthSetup } from './oauth-setup.js';

/** The sign-in every request goes through: a principal, or why not (its message is safe to show). */
export type CredentialCheck = (
  token: string,
  env: RuntimeEnv,
) => Promise<{ ok: true; principal: Principal } | { ok: false; code: string; message: string }>;

type AuthRequest = Awaited<ReturnType<OAuthHelpers['parseAuthRequest']>>;

/** The form is a handle, a choice and one credential: anything larger is not this page's form. */
const MAX_FORM_BYTES = 16 * 1024;

function randomNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The page for `request` with a fresh handle; `extra` carries the headers of a handle just spent. */
async function showPage(api: OAuthHelpers, request: AuthRequest, status: 200 | 401, problem?: string, extra?: Headers) {
  const details = await api.describeConsent(request);
  const consent = await api.beginConsent(request);
  const nonce = randomNonce();
  const headers = consent.headers;
  // The spent handle's cookie is cleared on the same answer that sets the fresh one's.
  extra?.forEach((value, name) => {
    if (name === 'set-cookie') headers.append('set-cookie', value);
  });
  headers.set('content-type', 'text/html; charset=utf-8');
  headers.set('content-security-policy', authorizePagePolicy(details, nonce));
  const page = authorizePage({ details, handle: consent.handle, ...(problem ? { problem } : {}) }, nonce);
  return new Response(page, { status, headers });
}

/** An expected refusal of the library: back to the client when it says that is safe, else a page. */
async function refusal(c: Context<HttpEnv>, error: unknown): Promise<Response> {
  const { AuthorizationError } = await import('./oauth-library.js');
  if (!(error instanceof AuthorizationError)) throw error;
  if (error.redirectTo) return c.redirect(error.redirectTo, 302);
  return c.html(
    messagePage('This sign-in cannot go on', `${error.description}. Start again from your MCP client.`),
    400,
  );
}

export async function showAuthorization(c: Context<HttpEnv>): Promise<Response> {
  const setup = await oauthSetup(c, 'page');
  if (setup instanceof Response) return setup;
  const api = setup.server.getOAuthApi(setup.storage);
  try {
    return await showPage(api, await api.parseAuthRequest(c.req.raw), 200);
  } catch (error) {
    return refusal(c, error);
  }
}

/** The body's text, or null past `MAX_FORM_BYTES`: read in chunks, so a body with no length stops there too. */
async function boundedText(request: Request): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? '0') > MAX_FORM_BYTES) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function readForm(c: Context<HttpEnv>): Promise<URLSearchParams | null> {
  const body = await boundedText(c.req.raw);
  return body === null ? null : new URLSearchParams(body);
}

export async function answerAuthorization(c: Context<HttpEnv>, check: CredentialCheck): Promise<Response> {
  const setup = await oauthSetup(c, 'page');
  if (setup instanceof Response) return setup;
  const api = setup.server.getOAuthApi(setup.storage);
  const form = await readForm(c);
  if (!form) return c.html(messagePage('This sign-in cannot go on', 'The form was not the one this page sends.'), 400);
  const handle = String(form.get('handle') ?? '');
  try {
    if (form.get('decision') !== 'approve') {
      const denied = await api.denyConsent(c.req.raw, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const approved = await api.approveConsent(c.req.raw, handle);
    const credential = String(form.get('credential') ?? '').trim();
    const signedIn = credential
      ? await check(credential, c.env)
      : { ok: false as const, code: 'unauthorized', message: 'Paste an API key or a token to sign in.' };
    if (!signedIn.ok) {
      const problem = `That did not sign you in (${signedIn.code}): ${signedIn.message}`;
      return await showPage(api, approved.request, 401, problem, approved.headers);
    }
    const { redirectTo } = await api.completeAuthorization({
      request: approved.request,
      userId: await grantUserId(signedIn.principal),
      metadata: {},
      scope: approved.request.scope,
      props: grantProps(signedIn.principal),
    });
    approved.headers.set('location', redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (error) {
    return refusal(c, error);
  }
}
