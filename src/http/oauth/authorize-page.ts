/**
 * The authorization page (IDN-7): who asks (the client's self-registered name, never trusted as
 * proof of anything), where the access goes (the redirect URI's host, with a warning when that is
 * an app on this computer), and a form to sign in with an API key or a pasted identity-provider
 * token and allow, or to deny. Everything from the client is escaped; the credential is never
 * written back into a page. The page runs no script, and its policy lets the form post only here
 * and be redirected only to the client's registered address.
 */
import type { ConsentDescription } from '@cloudflare/workers-oauth-provider';
import { AUTHORIZE_PATH } from './oauth-paths.js';

export interface AuthorizePage {
  details: ConsentDescription;
  /** The consent handle the library bound to this browser's cookie: the form's CSRF token. */
  handle: string;
  /** Why the last sign-in failed, in words for the person; never the credential. */
  problem?: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}.warn{background:#fff4d6;padding:.5rem .75rem}
.problem{background:#fde2e1;padding:.5rem .75rem}code{word-break:break-all}`;

/** The page's Content-Security-Policy: its one style element, and a form posting here only. */
export function authorizePagePolicy(details: ConsentDescription, styleNonce: string): string {
  const redirect = new URL(details.redirectUri);
  const returnTo = redirect.protocol === 'https:' || redirect.protocol === 'http:' ? ` ${redirect.origin}` : '';
  return [
    "default-src 'none'",
    `style-src 'nonce-${styleNonce}'`,
    // A form's redirect is held to form-action too: the client's registered address, and no other.
    `form-action 'self'${returnTo}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function who(details: ConsentDescription): string {
  const name = `<strong>${escapeHtml(details.clientName)}</strong>`;
  const origin = details.clientDomain
    ? `published by <strong>${escapeHtml(details.clientDomain)}</strong>`
    : 'an app that registered itself: its name is not proof of who made it';
  const local = details.redirectIsLoopback
    ? `<p class="warn">The access goes to an app on this computer. Continue only if you just started signing in from it.</p>`
    : '';
  return `<p>${name} (${origin}) asks to use the agents here and your threads, as you. Access will be sent to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>${local}`;
}

export function authorizePage(page: AuthorizePage, styleNonce: string): string {
  const problem = page.problem ? `<p class="problem" role="alert">${escapeHtml(page.problem)}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Allow ${escapeHtml(page.details.clientName)}?</title><style nonce="${styleNonce}">${STYLE}</style></head>
<body><h1>Sign in to allow an MCP client</h1>
${who(page.details)}
${problem}
<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="handle" value="${escapeHtml(page.handle)}">
<p><label for="credential">Your API key, or a token from your identity provider</label><br>
<input id="credential" name="credential" type="password" autocomplete="off" spellcheck="false"></p>
<p><button type="submit" name="decision" value="approve">Sign in and allow</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
<p>The client then acts as you on this server's MCP endpoint until its grant ends, 30 days after it last used it.</p>
</body></html>`;
}

/** A page that is only words: a request that cannot go on (expired, used, malformed). */
export function messagePage(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
}
