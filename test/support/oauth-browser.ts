/**
 * A browser's side of an MCP server's OAuth authorization, followed by hand through the Worker's
 * fetch handler (LOCK-4): the owner's keyed request for a start link, a browser opening it (keeping
 * the cookie it sets), the authorization server approving at once (harness/mcp-oauth.mjs), and the
 * callback, with whatever cookie the test chooses. No real browser: every header is the test's.
 */
import { expect } from 'vitest';
import { ALICE, api } from './api.js';

export interface BrowserCookie {
  name: string;
  value: string;
}

/** What a browser holds after opening a start link. */
export interface StartedInBrowser {
  cookie: BrowserCookie;
  /** The whole Set-Cookie line, for its attributes. */
  setCookie: string;
  /** Where the browser was sent: the authorization server, with the bound state. */
  authorizationUrl: string;
  state: string;
}

/** The path and query of a URL of the Worker (its origin is PUBLIC_URL, the requests go to the test Worker). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The owner's keyed request: `POST .../mcp-authorizations`, answered with a start link. */
export async function requestStartLink(id: string, server = 'secure', key = ALICE): Promise<string> {
  const response = await api(`/api/threads/${id}/mcp-authorizations`, { method: 'POST', json: { server }, key });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { start_url: string }).start_url;
}

/** A browser without cookies opens a start link: the redirect and the cookie it is given. */
export async function openStartLink(startUrl: string): Promise<StartedInBrowser> {
  const response = await api(pathOf(startUrl), { key: null, redirect: 'manual' });
  expect(response.status, await response.clone().text()).toBe(302);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const [pair = ''] = setCookie.split(';');
  const equals = pair.indexOf('=');
  const authorizationUrl = response.headers.get('location') ?? '';
  return {
    cookie: { name: pair.slice(0, equals), value: pair.slice(equals + 1) },
    setCookie,
    authorizationUrl,
    state: new URL(authorizationUrl).searchParams.get('state') ?? '',
  };
}

/** Follows the authorization URL as a user who approves would, and returns the callback's path. */
export async function approve(authorizationUrl: string): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const callback = new URL(response.headers.get('location') ?? '');
  expect(`${callback.origin}${callback.pathname}`).toBe('https://agents.test/oauth/mcp/callback');
  return `${callback.pathname}${callback.search}`;
}

/** The browser comes back to the callback, carrying `cookie` (a Cookie header's value) or none. */
export function callback(path: string, cookie: string | null): Promise<Response> {
  return api(path, { key: null, headers: cookie === null ? {} : { cookie } });
}

/** The whole bound flow for a thread waiting on `server`: link, browser, approval, callback. */
export async function authorizeInBrowser(id: string, server = 'secure'): Promise<Response> {
  const started = await openStartLink(await requestStartLink(id, server));
  const path = await approve(started.authorizationUrl);
  return callback(path, `${started.cookie.name}=${started.cookie.value}`);
}
