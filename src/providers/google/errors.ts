/**
 * What Gemini says when a request fails (THR-4). Its errors are Google API errors,
 * `{ "error": { "code": 429, "message": "...", "status": "RESOURCE_EXHAUSTED", "details": [...] } }`
 * (wrapped in an array by the non-SSE stream), whether as an HTTP error body or as an event inside
 * a stream. A rate limit's `details` may hold a `google.rpc.RetryInfo` whose `retryDelay` ("34.4s")
 * says when to try again; it is honoured when no `Retry-After` header says so.
 */
import { ProviderError } from '../../engine/ports/index.js';
import { isRecord, isRetryableStatus, snippet } from '../transport/index.js';

export const NAME = 'Gemini provider';

export interface GoogleError {
  /** The HTTP status it stands for, when it names one. */
  code: number | undefined;
  /** The canonical status name: `RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`... */
  status: string | undefined;
  message: string;
  retryDelayMs: number | null;
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';

/** Reads `{ error }` (or `[{ error }]`); null when the value is not a Google error. */
export function googleError(body: unknown): GoogleError | null {
  const first = Array.isArray(body) ? body[0] : body;
  if (!isRecord(first) || first.error === undefined || first.error === null) return null;
  const error = first.error;
  if (!isRecord(error)) return { code: undefined, status: undefined, message: String(error), retryDelayMs: null };
  const code = typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const status = typeof error.status === 'string' && error.status !== '' ? error.status : undefined;
  const message =
    typeof error.message === 'string' && error.message !== '' ? error.message : snippet(JSON.stringify(error));
  return { code, status, message, retryDelayMs: retryDelayOf(error.details) };
}

function retryDelayOf(details: unknown): number | null {
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    if (!isRecord(detail) || detail['@type'] !== RETRY_INFO || typeof detail.retryDelay !== 'string') continue;
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay.trim());
    if (seconds) return Number(seconds[1]) * 1000;
  }
  return null;
}

/** `429 RESOURCE_EXHAUSTED: You exceeded your current quota` */
function statusAndMessage(error: GoogleError, httpStatus?: number): string {
  const code = httpStatus ?? error.code;
  const head = [code, error.status].filter((piece) => piece !== undefined).join(' ');
  return head === '' ? error.message : `${head}: ${error.message}`;
}

/** A failed HTTP response's explanation: the error's status and message, else the body's text. */
export async function httpErrorOf(response: Response): Promise<{ message: string; retryDelayMs: number | null }> {
  const text = await response.text().catch(() => '');
  let error: GoogleError | null = null;
  try {
    error = googleError(JSON.parse(text));
  } catch {
    // Not JSON: a proxy's page or plain text.
  }
  if (error)
    return {
      message: `${NAME} answered ${statusAndMessage(error, response.status)}`,
      retryDelayMs: error.retryDelayMs,
    };
  const detail = snippet(text) || response.statusText || 'no details given';
  return { message: `${NAME} answered ${response.status}: ${detail}`, retryDelayMs: null };
}

/** An error reported inside a 200 response (mid-stream, or as its whole body). */
export function reportedError(error: GoogleError, what: string): ProviderError {
  const retryable = error.code !== undefined && isRetryableStatus(error.code);
  return new ProviderError(`${NAME} ${what}: ${statusAndMessage(error)}`, error.code, retryable);
}
