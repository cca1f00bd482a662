/**
 * What a provider says when a request fails (THR-4): the vendor's own explanation from its JSON body
 * (`error.message`, `message`, ...), or its text, shortened for a log line or an error frame.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text on one line, at most 300 characters. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** An error and its cause, for a message. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The message inside a vendor's error JSON: `{ error: { message } }`, `{ error: "..." }`, `{ message }`. */
export function errorMessageOf(body: unknown): string | null {
  if (Array.isArray(body)) return errorMessageOf(body[0]);
  if (!isRecord(body)) return null;
  const { error } = body;
  if (isRecord(error) && typeof error.message === 'string' && error.message !== '') return error.message;
  if (typeof error === 'string' && error !== '') return error;
  if (typeof body.message === 'string' && body.message !== '') return body.message;
  return null;
}

/** The provider's own explanation of a failed request: the message from its JSON, else its text. */
export async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const message = errorMessageOf(JSON.parse(text));
    if (message) return message;
  } catch {
    // Not JSON: the text itself is the best explanation there is.
  }
  return snippet(text) || response.statusText || 'no details given';
}
