/**
 * What Anthropic says when a step fails (THR-4). Its errors are `{ type: 'error', error: { type,
 * message } }`, whether as an HTTP error body or as an `error` event inside a stream; the error's
 * type names the HTTP status it stands for (`overloaded_error` is 529), which decides a retry when
 * the error arrives mid-stream. A failed response is quoted as "overloaded_error: Overloaded" with
 * the `request-id` Anthropic's support asks for.
 */
import { ProviderError } from '../../engine/ports/index.js';
import { errorMessageOf, isRecord, isRetryableStatus, snippet } from '../transport/index.js';

export const NAME = 'Anthropic provider';

/** Anthropic's error types and the HTTP status each comes with. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** An Anthropic error object (`{ type, message }`) as a ProviderError; `what` says where it was met. */
export function anthropicError(error: unknown, what: string): ProviderError {
  const type = isRecord(error) && typeof error.type === 'string' ? error.type : undefined;
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : undefined;
  const detail = [type, message].filter(Boolean).join(': ') || snippet(JSON.stringify(error) ?? String(error));
  const status = type ? ERROR_STATUS[type] : undefined;
  return new ProviderError(`${NAME} ${what}: ${detail}`, status, status !== undefined && isRetryableStatus(status));
}

/** A failed HTTP response's explanation, for the transport: `<name> answered <status>: <detail>`. */
export async function httpFailure(response: Response): Promise<{ message: string }> {
  return { message: `${NAME} answered ${response.status}: ${await errorDetail(response)}` };
}

/**
 * Anthropic's explanation of a failed request: `{ type: 'error', error: { type, message } }` as
 * "overloaded_error: Overloaded", other vendors' JSON by its message, else the text; with the
 * `request-id` Anthropic's support asks for.
 */
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let detail: string | null = null;
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    if (isRecord(error) && typeof error.type === 'string' && typeof error.message === 'string') {
      detail = `${error.type}: ${error.message}`;
    } else {
      detail = errorMessageOf(body);
    }
  } catch {
    // Not JSON: the text itself is the best explanation there is.
  }
  detail ??= snippet(text) || response.statusText || 'no details given';
  const requestId = response.headers.get('request-id');
  return requestId ? `${detail} (request-id ${requestId})` : detail;
}
