/**
 * The one error every failed call throws: the status of the answer and the API's
 * `{ error: { code, message, details } }` body, so callers branch on `code` rather than on text.
 * An answer without that body (a proxy's page, an empty 502) still becomes an ApiError, coded
 * `http_<status>`.
 */

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** The ApiError an answer's status and (already read) body describe. */
  static fromBody(status: number, body: unknown): ApiError {
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    if (typeof error === 'object' && error !== null) {
      const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
      if (typeof code === 'string') {
        return new ApiError(status, code, typeof message === 'string' ? message : code, details);
      }
    }
    const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
    return new ApiError(status, `http_${status}`, text || `the API answered ${status}`);
  }

  /** Reads a failed response's body and builds the ApiError it describes. */
  static async fromResponse(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return ApiError.fromBody(response.status, body);
  }
}

/** Whether an answer's status means retrying the same request cannot succeed (bad key, no thread). */
export function isPermanent(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
