/**
 * The headers every answer of the Worker carries (THR-5). The inspector keeps an API key on this
 * origin, so nothing served here may be framed by another site (clickjacking), read as a type other
 * than the one it declares (MIME sniffing), or hand its URL to another site as a referrer (OAuth
 * links carry one-time secrets). Each kind of page gets the narrowest Content-Security-Policy it
 * works with; an answer that sets none (API JSON, error pages, the OAuth pages) gets one that allows
 * nothing at all.
 */
import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from './http-env.js';

/** For anything that is not one of the pages below: no script, no style, no frame, no form. */
export const LOCKED_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The inspector page (inspector/public): its bundled script and stylesheet from this origin, the API
 * and the thread streams (fetch, EventSource, WebSocket) on this origin, the `data:` favicon, and
 * `blob:` images: the page reads a message's image through the files route (the key rides in a
 * header, which an <img> cannot send) and shows the bytes from an object URL only it can make. No
 * inline script or style, no other origin.
 */
export const INSPECTOR_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ALWAYS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function apply(headers: Headers, policy: string | undefined): void {
  for (const [name, value] of Object.entries(ALWAYS)) headers.set(name, value);
  if (policy !== undefined) headers.set('content-security-policy', policy);
  else if (!headers.has('content-security-policy')) headers.set('content-security-policy', LOCKED_POLICY);
}

/**
 * `response` with the security headers; `policy` replaces its Content-Security-Policy, otherwise
 * one it set itself is kept. An answer whose headers cannot change (one fetched from the assets or
 * a Durable Object) is copied. A WebSocket handshake (101) is no document and passes as it is.
 */
export function withSecurityHeaders(response: Response, policy?: string): Response {
  if (response.status === 101) return response;
  try {
    apply(response.headers, policy);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    apply(copy.headers, policy);
    return copy;
  }
}

/** The app's outermost middleware: every answer, errors and 404s included, leaves with the headers. */
export function securityHeaders(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const secured = withSecurityHeaders(c.res);
    if (secured !== c.res) c.res = secured;
  };
}
