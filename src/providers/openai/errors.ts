/**
 * What an OpenAI-compatible server says when a step fails inside a 200 answer (THR-4): an `error`
 * object mid-stream or as the whole body. A failed HTTP response is explained by the transport's
 * reading of `{ error: { message } }` (errorDetail), which every such server follows.
 */
import { ProviderError } from '../../engine/ports/index.js';
import { isRecord, isRetryableStatus, snippet } from '../transport/index.js';

export const NAME = 'OpenAI-compatible provider';

/** An `error` object in a 200 body; its numeric `code`, when it looks like an HTTP status, becomes the status. */
export function reportedError(error: unknown, what: string): ProviderError {
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : snippet(JSON.stringify(error));
  const code = isRecord(error) ? Number(error.code) : Number.NaN;
  const status = Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
  return new ProviderError(`${NAME} ${what}: ${message}`, status, status !== undefined && isRetryableStatus(status));
}
