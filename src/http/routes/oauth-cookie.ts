/**
 * The cookie that binds an MCP server's OAuth authorization to the browser that starts it (LOCK-4,
 * thread/mcp/browser-binding.ts). It holds a random nonce; the thread only ever sees its hash. It is
 * HttpOnly (no script reads it), SameSite=Lax (sent on the authorization server's top-level redirect
 * back, never on another site's subrequest), Path=/, and lives as long as the authorization may take.
 * Each authorization has its own cookie, named after its state, so two under way in one browser do
 * not overwrite each other.
 *
 * Where PUBLIC_URL is https, the name carries the `__Host-` prefix: the browser keeps such a cookie
 * only if it is Secure, set by this very host and for Path=/, so no sibling subdomain and no plain
 * http page can plant one. Local `wrangler dev` serves http://localhost, where not every browser
 * keeps a Secure cookie: there (localhost, 127.0.0.1, [::1] only) the name has no prefix and the
 * cookie is not Secure. On any other http origin there is no OAuth: a nonce sent in clear text binds
 * nothing.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { BROWSER_STATE_TTL_MS } from '../../thread/mcp/index.js';
import type { HttpEnv } from '../contract/index.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** How this deployment sets the cookie, or why it cannot run OAuth. */
export type CookiePolicy = { secure: boolean } | { refused: string };

export function cookiePolicy(publicUrl: string | undefined): CookiePolicy {
  if (!publicUrl) return { refused: 'OAuth for MCP servers needs the PUBLIC_URL variable (the Worker origin)' };
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return { refused: 'PUBLIC_URL is not a URL' };
  }
  if (url.protocol === 'https:') return { secure: true };
  if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) return { secure: false };
  return { refused: 'OAuth for MCP servers needs an https PUBLIC_URL (http only on localhost)' };
}

/** The cookie's name for an authorization's `state` (without the `__Host-` prefix Hono adds). */
function cookieName(state: string): string {
  const random = state.slice(state.indexOf('.') + 1);
  return `mcp-oauth-${random.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

function options(policy: { secure: boolean }) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax' as const,
    secure: policy.secure,
    ...(policy.secure ? { prefix: 'host' as const } : {}),
  };
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The hash the thread keeps of a nonce: SHA-256, base64url. */
export async function nonceHash(nonce: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(nonce))));
}

/** A fresh nonce for a browser that opens a start link. */
export function newNonce(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Gives the browser the nonce that binds it to `state`. */
export function bindBrowser(c: Context<HttpEnv>, policy: { secure: boolean }, state: string, nonce: string): void {
  setCookie(c, cookieName(state), nonce, { ...options(policy), maxAge: Math.floor(BROWSER_STATE_TTL_MS / 1000) });
}

/** The nonce this browser holds for `state`, if any. */
export function boundNonce(c: Context<HttpEnv>, policy: { secure: boolean }, state: string): string | undefined {
  return getCookie(c, cookieName(state), policy.secure ? 'host' : undefined) || undefined;
}

/** Tells the browser to forget the nonce of `state`: the authorization it bound is over. */
export function unbindBrowser(c: Context<HttpEnv>, policy: { secure: boolean }, state: string): void {
  deleteCookie(c, cookieName(state), options(policy));
}
