/**
 * Where a request carries its credential: `Authorization: Bearer <token>`, or `?token=` on the two
 * frame streams only — the WebSocket upgrade of `/api/threads/:id/stream` and
 * `GET /api/threads/:id/events` — because browsers set no headers on a WebSocket or an EventSource
 * (THR-2). Never another route whose path merely ends in `/stream` or `/events` (a file of that name).
 */

import { accessAssertion } from './jwt-resolver.js';

/** The WebSocket route, exactly: `/api/threads/:id/stream`. */
const STREAM_ROUTE = /^\/api\/threads\/[^/]+\/stream$/;
/** The Server-Sent Events route, exactly: `/api/threads/:id/events`. */
const EVENTS_ROUTE = /^\/api\/threads\/[^/]+\/events$/;

function isFrameStream(request: Request, path: string): boolean {
  if (request.method !== 'GET') return false;
  if (EVENTS_ROUTE.test(path)) return true;
  return STREAM_ROUTE.test(path) && request.headers.get('upgrade')?.toLowerCase() === 'websocket';
}

/**
 * The token a request presents, or null: the bearer token; `?token=` on a frame stream; or, behind
 * Cloudflare Access, the assertion Access adds to every request it lets through (IDN-3).
 */
export function presentedToken(request: Request, path: string): string | null {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (match) return (match[1] as string).trim();
  if (isFrameStream(request, path)) return new URL(request.url).searchParams.get('token');
  return accessAssertion(request);
}
