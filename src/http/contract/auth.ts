/**
 * Bearer-key authentication (THR-6) of `/api` and `/mcp`. `API_KEYS` lists the accepted keys,
 * comma-separated; each key is one user, identified by a hash of the key so the key itself is never
 * stored. Without API_KEYS every request is refused: a deployment is never open by accident. The key
 * travels in the Authorization header, or as `?token=` on the two frame streams only: the WebSocket
 * upgrade of `/api/threads/:id/stream` and `GET /api/threads/:id/events` (THR-2).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { DEFAULT_TENANT } from '../../thread/access/index.js';
import { errorResponse } from './errors.js';
import type { HttpEnv } from './http-env.js';

const encoder = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The user a key stands for, from the key's digest: a hash, so the key itself is never stored (THR-6). */
function userIdForDigest(digest: string): string {
  return `u_${digest.slice(0, 32)}`;
}

/** The user a key stands for (THR-6). */
export async function userIdForKey(key: string): Promise<string> {
  return userIdForDigest(await sha256Hex(key));
}

let cachedKeys: { source: string; digests: Promise<Set<string>> } | null = null;

function keyDigests(source: string): Promise<Set<string>> {
  if (cachedKeys?.source !== source) {
    const keys = source
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== '');
    cachedKeys = { source, digests: Promise.all(keys.map(sha256Hex)).then((list) => new Set(list)) };
  }
  return cachedKeys.digests;
}

/** The WebSocket route, exactly: `/api/threads/:id/stream`. */
const STREAM_ROUTE = /^\/api\/threads\/[^/]+\/stream$/;
/** The Server-Sent Events route, exactly: `/api/threads/:id/events`. */
const EVENTS_ROUTE = /^\/api\/threads\/[^/]+\/events$/;

/**
 * Whether a request may carry its key as `?token=` (browsers set no headers on a WebSocket or an
 * EventSource): only a GET of a frame stream itself — the stream route asking for a WebSocket
 * upgrade, or the events route — never another route whose path merely ends in `/stream` or
 * `/events` (a file of that name).
 */
function isFrameStream(request: Request, path: string): boolean {
  if (request.method !== 'GET') return false;
  if (EVENTS_ROUTE.test(path)) return true;
  return STREAM_ROUTE.test(path) && request.headers.get('upgrade')?.toLowerCase() === 'websocket';
}

/** The key from `Authorization: Bearer <key>`, or from `?token=` where `allowQueryToken` (frame streams). */
function presentedKey(request: Request, allowQueryToken: boolean): string | null {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (match) return (match[1] as string).trim();
  if (allowQueryToken) return new URL(request.url).searchParams.get('token');
  return null;
}

/**
 * A 401 with the challenge RFC 6750 asks for: MCP clients (and other HTTP clients) read
 * `WWW-Authenticate` to learn that a bearer token is expected, and `error` when the one sent is wrong.
 */
function unauthorized(c: Context, message: string, error?: 'invalid_token'): Response {
  c.header('WWW-Authenticate', `Bearer realm="standard-agents"${error ? `, error="${error}"` : ''}`);
  return errorResponse(c, { status: 401, code: 'unauthorized', message });
}

export function bearerAuth(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const configured = c.env.API_KEYS ?? '';
    if (configured.trim() === '') {
      return errorResponse(c, {
        status: 503,
        code: 'auth_not_configured',
        // Name both places a key lives: a local project's .dev.vars, and a deployed Worker's secrets.
        message:
          'API_KEYS is not set, so every request is refused. Running locally: put API_KEYS=<key> in .dev.vars ' +
          'next to wrangler.toml and restart wrangler dev. Deployed: npx wrangler secret put API_KEYS',
      });
    }
    const key = presentedKey(c.req.raw, isFrameStream(c.req.raw, c.req.path));
    if (!key) {
      return unauthorized(c, 'missing API key: send "Authorization: Bearer <key>"');
    }
    // Comparing digests keeps the comparison independent of where the strings first differ.
    const digest = await sha256Hex(key);
    if (!(await keyDigests(configured)).has(digest)) {
      return unauthorized(c, 'invalid API key', 'invalid_token');
    }
    const subject = userIdForDigest(digest);
    c.set('principal', { tenant: DEFAULT_TENANT, subject, role: 'approver', via: 'api_keys' });
    c.set('userId', subject);
    await next();
  };
}
