/**
 * HTTP plumbing shared by the search adapters: one JSON request, made through the thread's
 * egress-checked `state.fetch`, whose failures become clear
 * SearchProviderErrors (the status and what to check, never the response body, which may echo a key),
 * and result mapping that strips the markup some APIs put in titles and snippets.
 */
import { decodeHTML } from 'entities';
import { type SearchCall, SearchProviderError, type SearchResult } from './types.js';

const MAX_SNIPPET_CHARS = 1000;

export interface JsonRequest {
  /** The provider as the model should read it, e.g. "Brave Search". */
  provider: string;
  url: URL;
  init: RequestInit;
  /** The thread's egress-checked fetch and the call's deadline. */
  call: SearchCall;
  /** What to check when the provider refuses the credentials (401/403). */
  authHint: string;
}

export async function requestJson({ provider, url, init, call, authHint }: JsonRequest): Promise<unknown> {
  let response: Response;
  try {
    response = await call.fetch(url, { ...init, signal: call.signal });
  } catch (error) {
    // An abort (timeout or stop) is the caller's to report.
    if (call.signal.aborted) throw error;
    // A base URL the egress policy refuses, e.g. SEARXNG_URL=http://127.0.0.1/.
    throw new SearchProviderError(`${provider} could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SearchProviderError(statusMessage(provider, response.status, authHint));
  }
  try {
    return await response.json();
  } catch (error) {
    if (call.signal.aborted) throw error;
    throw new SearchProviderError(`${provider} answered with something other than JSON`);
  }
}

function statusMessage(provider: string, status: number, authHint: string): string {
  if (status === 401 || status === 403) return `${provider} refused the request (HTTP ${status}): ${authHint}`;
  if (status === 429) return `${provider} is rate limiting or out of quota (HTTP 429); try again later`;
  if (status >= 500) return `${provider} failed (HTTP ${status}); try again later`;
  return `${provider} rejected the request (HTTP ${status})`;
}

/** A base URL from a variable, without its trailing slash; must be http(s). */
export function baseUrl(variables: Readonly<Record<string, string>>, name: string, fallback: string): string {
  const raw = variables[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SearchProviderError(`variable ${name} is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SearchProviderError(`variable ${name} must be an http or https URL: "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** Plain text from an API's title or snippet, which may carry tags (`<strong>`) and entities. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  const text = decodeHTML(value.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_SNIPPET_CHARS ? `${text.slice(0, MAX_SNIPPET_CHARS - 1)}…` : text;
}

/** Maps an API's result objects; items without an http(s) URL are skipped. */
export function mapResults(items: unknown, snippetField: string, maxResults: number): SearchResult[] {
  if (!Array.isArray(items)) return [];
  const results: SearchResult[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const url = record.url;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) continue;
    results.push({ title: plainText(record.title) || url, url, snippet: plainText(record[snippetField]) });
    if (results.length >= maxResults) break;
  }
  return results;
}

/** The object at `path` in a parsed JSON body, or a clear error when the body is not an object. */
export function field(body: unknown, provider: string, ...path: string[]): unknown {
  if (typeof body !== 'object' || body === null) {
    throw new SearchProviderError(`${provider} answered with an unexpected JSON shape`);
  }
  let value: unknown = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
