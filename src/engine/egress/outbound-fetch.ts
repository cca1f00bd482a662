/**
 * `state.fetch` (containment): a fetch on a model's behalf. Every hop, the first URL and
 * each redirect target, is checked against the egress policy (egress-policy.ts) and then offered to
 * the thread's host check (the `net.fetch` permission rules) before a byte is sent to it. Redirects
 * are followed by hand (`redirect: 'manual'` on each request, at most 5), rewriting the method the way
 * the fetch standard does, and a hop to another origin keeps only headers that carry no credential.
 * A hop that gets no answer fails with the host and the cause (connect-failure.ts).
 */
import { EgressRefused } from '../../spec/index.js';
import { connectFailure } from './connect-failure.js';
import { checkEgress, type EgressPolicy } from './egress-policy.js';
import { runtimeFetch } from './tool-network.js';

export const MAX_REDIRECTS = 5;

/** The network underneath; the runtime's own fetch (tool-network.ts) unless a test gives another. */
export type FetchTransport = (url: URL, init: RequestInit) => Promise<Response>;

export interface OutboundFetchDeps {
  egress: EgressPolicy;
  /** Runs before each hop, after the policy; throws to refuse the URL (the thread's `net.fetch` rules). */
  checkHost?(url: URL): void;
  transport?: FetchTransport;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** What still travels on a hop to another origin: nothing that could be a credential. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'user-agent']);
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

// Each hop is checked here, so the request itself leaves the calling tool's context.
const globalTransport: FetchTransport = (url, init) => runtimeFetch(url, init);

interface Hop {
  method: string;
  headers: Headers;
  body: ArrayBuffer | null;
}

function urlOf(input: string | URL | Request): string | URL {
  return typeof input === 'string' || input instanceof URL ? input : input.url;
}

/** The request's method, headers and body, the body read once so a 307/308 can send it again. */
async function firstHop(input: string | URL | Request, init: RequestInit | undefined): Promise<Hop> {
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const headers = new Headers(request?.headers);
  for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
  const source = init?.body !== undefined ? init.body : (request?.body ?? null);
  if (source === null || method === 'GET' || method === 'HEAD') return { method, headers, body: null };
  const carrier = new Response(source);
  const type = carrier.headers.get('content-type');
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  return { method, headers, body: await carrier.arrayBuffer() };
}

/** The request a redirect leads to (fetch standard, "HTTP-redirect fetch" steps 11 to 13). */
function nextHop(hop: Hop, status: number, from: URL, to: URL): Hop {
  let { method, body } = hop;
  const headers = new Headers(hop.headers);
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = method === 'HEAD' ? 'HEAD' : 'GET';
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (to.origin !== from.origin) {
    for (const name of [...headers.keys()]) if (!CROSS_ORIGIN_HEADERS.has(name)) headers.delete(name);
  }
  return { method, headers, body };
}

/** Checks `target` for hop `hop` (0 = the URL asked for) and returns it parsed, or throws EgressRefused. */
function admit(deps: OutboundFetchDeps, target: string | URL, base: URL | undefined, hop: number): URL {
  const decision = checkEgress(deps.egress, target, base);
  if (!decision.allowed) {
    const message = hop === 0 ? decision.message : `redirected to a refused URL: ${decision.message}`;
    throw new EgressRefused(message, decision.url?.href ?? null);
  }
  deps.checkHost?.(decision.url);
  return decision.url;
}

export async function outboundFetch(
  deps: OutboundFetchDeps,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const transport = deps.transport ?? globalTransport;
  let url = admit(deps, urlOf(input), undefined, 0);
  const mode = init?.redirect ?? (input instanceof Request ? input.redirect : 'follow');
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  let hop = await firstHop(input, init);
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await transport(url, {
        ...init,
        method: hop.method,
        headers: hop.headers,
        body: hop.body,
        signal: signal ?? null,
        redirect: 'manual',
      });
    } catch (error) {
      // A stop or a time limit keeps its own reason, which callers tell apart from a failed connection.
      if (signal?.aborted) throw error;
      throw connectFailure(url, error);
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null || mode === 'manual') return response;
    await response.body?.cancel();
    if (mode === 'error') {
      throw new EgressRefused(`${url.href} redirected to ${location}, and redirects are refused`, url.href);
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new EgressRefused(`more than ${MAX_REDIRECTS} redirects, last to ${location}`, url.href);
    }
    const next = admit(deps, location, url, redirects + 1);
    hop = nextHop(hop, response.status, url, next);
    url = next;
  }
}
