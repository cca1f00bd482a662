/**
 * What a failed Workers AI call means (THR-4). The binding reports no HTTP status: it throws an
 * Error whose message starts with Workers AI's internal code (`3040: Capacity temporarily
 * exceeded, ...`). The documented codes (developers.cloudflare.com/workers-ai/platform/errors/) give
 * the status; only the transient ones are retried: out of capacity (3040) and a timeout (3007).
 * Account limited (3036) is the daily free allocation, which resets the next day, so a retry seconds
 * later cannot help. An error without a known code is retried only when its text says the service
 * was momentarily unavailable (a 5xx from upstream, a lost connection).
 */
import { ProviderError } from '../../engine/ports/index.js';
import { isRecord, snippet } from '../transport/index.js';

export const NAME = 'Workers AI binding';

/** Internal code → HTTP status, from the Workers AI errors table. */
const CODE_STATUS: ReadonlyMap<number, number> = new Map([
  [5007, 400], // No such model
  [5004, 400], // Invalid data
  [3039, 400], // Finetune missing required files
  [3003, 400], // Incomplete request
  [5018, 403], // Account not allowed for private model
  [5016, 403], // Model agreement not accepted
  [3023, 403], // Account blocked
  [3041, 403], // Account not allowed for private model
  [5019, 405], // Deprecated SDK version
  [5005, 405], // LoRa unsupported
  [3042, 404], // Invalid model ID
  [3006, 413], // Request too large
  [3007, 408], // Timeout
  [3008, 408], // Aborted
  [3036, 429], // Account limited: the daily free allocation is used up
  [3040, 429], // Out of capacity: no data center to forward the request to
]);

const TRANSIENT_CODES: ReadonlySet<number> = new Set([3040, 3007]);

const TRANSIENT_TEXT =
  /\b50[0-4]\b|internal server error|bad gateway|service unavailable|gateway timeout|network connection lost|overloaded|try again later/i;

/** The text of whatever was thrown: an Error, a string, an object with a message. */
export function thrownText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  try {
    return snippet(JSON.stringify(error) ?? String(error));
  } catch {
    return String(error);
  }
}

/** The first documented internal code the error carries, in a `code` property or its message. */
function internalCode(error: unknown, text: string): number | undefined {
  const property = isRecord(error) || error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const fromProperty = Number(property);
  if (CODE_STATUS.has(fromProperty)) return fromProperty;
  for (const match of text.matchAll(/\b(\d{4})\s*:/g)) {
    const code = Number(match[1]);
    if (CODE_STATUS.has(code)) return code;
  }
  return undefined;
}

/** A failure of the binding as a ProviderError: the model, what Workers AI said, its status, whether to retry. */
export function bindingFailure(error: unknown, model: string, when = 'failed'): ProviderError {
  const text = thrownText(error).trim() || 'no details given';
  const code = internalCode(error, text);
  const status = code === undefined ? undefined : CODE_STATUS.get(code);
  const retryable = code === undefined ? TRANSIENT_TEXT.test(text) : TRANSIENT_CODES.has(code);
  return new ProviderError(`${NAME} ${when} for ${model}: ${text}`, status, retryable);
}
