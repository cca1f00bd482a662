/**
 * An MCP server's OAuth authorization, bound to the browser that starts it (LOCK-4). RFC 9700 §4.7:
 * the authorization response must go back to the user agent that made the request; otherwise anyone
 * who sees the authorization URL can approve it with their own account at the authorization server,
 * and the tokens of that account land in this thread. So the flow has three steps, each single-use:
 *
 * 1. The thread's owner, with their key, asks for a start link: a one-time secret (its hash kept
 *    here) that expires after START_LINK_TTL_MS.
 * 2. A browser opens the link. The Worker gives that browser a cookie holding a random nonce and
 *    hands this thread only the nonce's hash; the thread spends the link, makes a new `state`, binds
 *    it to that hash for BROWSER_STATE_TTL_MS, and answers the authorization URL with that state.
 * 3. The authorization server sends the browser back with the state: only the same browser, whose
 *    cookie hashes to the bound hash, completes it, once, before the deadline.
 *
 * A refusal that proves nothing (no cookie, another browser's cookie) changes nothing, so a stranger
 * cannot spend the user's authorization; an expired one spends it.
 */
import type { ApiError } from '../bindings/index.js';
import type { SqliteMcpStorage } from './mcp-storage.js';

/** How long a start link can be opened after the keyed request made it. */
export const START_LINK_TTL_MS = 5 * 60_000;
/** How long the user has, from opening the link, to come back from the authorization server. */
export const BROWSER_STATE_TTL_MS = 10 * 60_000;

const RESTART = 'Start the authorization again from the thread.';

function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function sameText(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

function refused(status: ApiError['status'], code: string, message: string): ApiError {
  return { status, code, message };
}

/** Step 1: a one-time start link for `server`'s authorization under way: `<thread id>.<secret>`. */
export async function issueStartLink(
  storage: SqliteMcpStorage,
  threadId: string,
  server: string,
  now: number,
): Promise<{ ticket: string; expiresAt: number } | ApiError> {
  const credentials = await storage.credentials(server);
  if (!credentials?.authorizationUrl) {
    return refused(409, 'no_authorization', `no authorization of the MCP server "${server}" is under way`);
  }
  const ticket = `${threadId}.${randomPart()}`;
  const expiresAt = now + START_LINK_TTL_MS;
  await storage.saveCredentials(server, { ...credentials, start: { hash: await sha256Hex(ticket), expiresAt } });
  return { ticket, expiresAt };
}

/** Step 2: a browser opened `ticket`; its cookie's nonce hashes to `nonceHash`. */
export async function beginInBrowser(
  storage: SqliteMcpStorage,
  threadId: string,
  ticket: string,
  nonceHash: string,
  now: number,
): Promise<{ server: string; state: string; authorizationUrl: string } | ApiError> {
  const hash = await sha256Hex(ticket);
  const found = await storage.serverWhere((credentials) => credentials.start?.hash === hash);
  if (!found) return refused(400, 'unknown_link', `This authorization link is unknown or was used already. ${RESTART}`);
  const { server, credentials } = found;
  // Spent whatever happens next: a link opens one browser, once.
  const spent = { ...credentials, start: undefined };
  if (!credentials.authorizationUrl || (credentials.start?.expiresAt ?? 0) <= now) {
    await storage.saveCredentials(server, spent);
    return refused(400, 'link_expired', `This authorization link has expired. ${RESTART}`);
  }
  const state = `${threadId}.${randomPart()}`;
  const url = new URL(credentials.authorizationUrl);
  url.searchParams.set('state', state);
  await storage.saveCredentials(server, {
    ...spent,
    state,
    binding: { nonceHash, expiresAt: now + BROWSER_STATE_TTL_MS },
  });
  return { server, state, authorizationUrl: url.href };
}

/**
 * Step 3: the authorization server sent a browser back with `state`; `nonceHash` is the hash of the
 * nonce its cookie holds (null: it holds none). The server whose authorization this completes, its
 * state spent; or why not.
 */
export async function claimCallback(
  storage: SqliteMcpStorage,
  state: string,
  nonceHash: string | null,
  now: number,
): Promise<string | ApiError> {
  const found = state ? await storage.serverWhere((credentials) => credentials.state === state) : null;
  const binding = found?.credentials.binding;
  if (!found || !binding) return refused(400, 'unknown_state', 'no authorization under way matches this state');
  const { server, credentials } = found;
  if (nonceHash === null || !sameText(nonceHash, binding.nonceHash)) {
    return refused(
      403,
      'browser_not_bound',
      `This browser did not start this authorization: open the authorization link from the thread in this browser. ${RESTART}`,
    );
  }
  await storage.saveCredentials(server, { ...credentials, state: undefined, binding: undefined });
  if (binding.expiresAt <= now)
    return refused(400, 'authorization_expired', `This authorization has expired. ${RESTART}`);
  return server;
}
