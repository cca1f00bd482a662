/**
 * `web_fetch` (LOCK-1, LOCK-3, LOCK-6): fetches an http(s) URL and returns its content as markdown or
 * plain text. It fetches only through `state.fetch`, so the URL and every redirect hop (at most 5) pass
 * the egress policy (no loopback, private or metadata hosts) before anything is sent; the
 * download stops at a size cap (default 5 MB), the call has a time limit (default 30 s), HTML is
 * converted (html-to-text.ts), text and JSON pass through, and binary content is refused. Output past
 * 200 KB is cut by the runtime to a head plus a sidecar file (`maxOutputBytes`).
 */
import { z } from 'zod';
import { canonicalHost } from '../../engine/egress/index.js';
import { AccessDenied } from '../../engine/permissions/index.js';
import { EgressRefused } from '../../spec/index.js';
import { DEFAULT_MAX_OUTPUT_BYTES, defineTool, positiveIntVariable } from '../../spec/internal.js';
import { htmlToText } from './html-to-text.js';

export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
const MAX_FETCH_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;
const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;
const USER_AGENT = 'Mozilla/5.0 (compatible; StandardAgents-web_fetch/0.1)';
const ACCEPT =
  'text/html, application/xhtml+xml;q=0.9, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.1';

export type ContentKind = 'html' | 'text' | 'binary';

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
  'application/graphql',
  'application/sql',
  'application/x-sh',
  'application/csv',
]);

/** What a Content-Type header means for extraction; null when there is none, to sniff instead. */
export function classifyContentType(header: string | null): ContentKind | null {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  if (!type) return null;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type)) return 'text';
  if (/^application\/[\w.-]+\+(?:json|xml)$/.test(type)) return 'text';
  return 'binary';
}

/** Without a Content-Type: NUL bytes mean binary, a leading tag means HTML. */
function sniff(bytes: Uint8Array): ContentKind {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  return /^\s*<(?:!doctype\s+html|html|head|body)\b/i.test(new TextDecoder().decode(head)) ? 'html' : 'text';
}

/** Reads at most `cap` bytes of the body, then stops the download. */
async function readCapped(response: Response, cap: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = cap - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      size = cap;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

function decode(bytes: Uint8Array, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const args = z.object({
  url: z.string().min(1).describe('The http or https URL to fetch'),
  format: z.enum(['markdown', 'text']).default('markdown').describe('How to render an HTML page'),
});

/**
 * The host a URL names, canonical as the egress policy reads it (lowercase, no trailing dot), for the
 * capability and permission checks; none when it is not an http(s) URL (state.fetch refuses those).
 */
function hostOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) && parsed.hostname ? [canonicalHost(parsed)] : [];
  } catch {
    return [];
  }
}

export const webFetch = defineTool({
  description: 'Fetch a web page by URL and convert its content to markdown or plain text',
  args,
  acpKind: 'fetch',
  // INJ-1: pages and snippets are written by strangers: data for the model, never instructions.
  untrustedOutput: true,
  readOnly: true,
  idempotent: true,
  concurrent: true,
  maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
  timeout: MAX_FETCH_TIMEOUT_MS + 5_000,
  requires: { net: { hosts: ['*'] } },
  access: (input) => ({ hosts: hostOf(input.url), subject: input.url }),
  variables: [
    {
      name: 'WEB_FETCH_TIMEOUT_MS',
      type: 'text',
      required: false,
      description: `Time limit of one web_fetch call in milliseconds (at most ${MAX_FETCH_TIMEOUT_MS})`,
      default: String(DEFAULT_FETCH_TIMEOUT_MS),
    },
    {
      name: 'WEB_FETCH_MAX_BYTES',
      type: 'text',
      required: false,
      description: `Most bytes web_fetch downloads from one URL (at most ${MAX_DOWNLOAD_BYTES})`,
      default: String(DEFAULT_MAX_DOWNLOAD_BYTES),
    },
  ],
  execute: async (state, input) => {
    let timeoutMs: number;
    let maxBytes: number;
    try {
      timeoutMs = positiveIntVariable(
        state.tenvs,
        'WEB_FETCH_TIMEOUT_MS',
        DEFAULT_FETCH_TIMEOUT_MS,
        MAX_FETCH_TIMEOUT_MS,
      );
      maxBytes = positiveIntVariable(
        state.tenvs,
        'WEB_FETCH_MAX_BYTES',
        DEFAULT_MAX_DOWNLOAD_BYTES,
        MAX_DOWNLOAD_BYTES,
      );
    } catch (error) {
      return { status: 'error', error: `web_fetch: ${(error as Error).message}` };
    }
    // Aborts when the time limit passes or the thread stops the call (EXE-5); the reason tells which.
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = state.execution ? AbortSignal.any([timeout, state.execution.abortSignal]) : timeout;
    try {
      // state.fetch checks the URL and every redirect hop against the egress policy.
      const response = await state.fetch(input.url, {
        signal,
        headers: { 'user-agent': USER_AGENT, accept: ACCEPT },
      });
      const url = new URL(response.url || input.url);
      if (!response.ok) {
        await response.body?.cancel();
        return {
          status: 'error',
          error: `web_fetch: ${url} answered HTTP ${response.status} ${response.statusText}`.trimEnd(),
        };
      }
      const contentType = response.headers.get('content-type');
      let kind = classifyContentType(contentType);
      if (kind === 'binary') {
        await response.body?.cancel();
        return {
          status: 'error',
          error: `web_fetch: ${url} is ${contentType}, a binary type that cannot be read as text`,
        };
      }
      const { bytes, truncated } = await readCapped(response, maxBytes);
      kind ??= sniff(bytes);
      if (kind === 'binary')
        return { status: 'error', error: `web_fetch: ${url} is binary content that cannot be read as text` };
      const body = decode(bytes, contentType);
      let text = kind === 'html' ? htmlToText(body, { format: input.format, baseUrl: url.toString() }) : body;
      if (text.trim() === '') text = '(the page has no text content; it may need JavaScript to render)';
      if (truncated)
        text += `\n\n[web_fetch: the download stopped at ${maxBytes} bytes; the rest of the page was not read]`;
      return { status: 'success', result: text };
    } catch (error) {
      if (error instanceof EgressRefused || error instanceof AccessDenied) {
        return { status: 'error', error: `web_fetch: ${error.message}` };
      }
      if (isTimeout(signal.reason))
        return { status: 'error', error: `web_fetch: ${input.url} did not answer within ${timeoutMs} ms` };
      if (signal.aborted) return { status: 'error', error: 'web_fetch: the call was stopped' };
      return { status: 'error', error: `web_fetch: could not fetch ${input.url}: ${(error as Error).message}` };
    }
  },
});

/** `AbortSignal.timeout`'s reason; a stop carries the caller's own reason instead. */
function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}
