/**
 * A thread endpoint's request as the handler receives it (EP-10, EP-12): its body read in the Worker
 * up to the API's 1 MiB limit (413 `body_too_large` past it, whether or not a length was declared,
 * without reading further), its query and JSON body checked against the endpoint's schemas when it
 * gives them (400 `invalid_request`, `invalid_json`, `json_too_deep`), and the caller's credential
 * left out: application code never sees the Authorization header or the cookies.
 */
import type { ThreadEndpointDefinition } from '../../spec/index.js';
import { describeIssues, issueLines } from '../../spec/internal.js';
import { HttpError, MAX_JSON_DEPTH, nestsDeeperThan } from '../contract/index.js';

const CREDENTIAL_HEADERS = ['authorization', 'cookie'];

function tooLarge(limit: number): HttpError {
  return new HttpError({
    status: 413,
    code: 'body_too_large',
    message: `request bodies are limited to ${limit} bytes`,
  });
}

/** The body's bytes, refused as soon as they pass `limit`; null for a request without a body. */
async function boundedBytes(request: Request, limit: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get('content-length') ?? '0') > limit) throw tooLarge(limit);
  if (!request.body) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function checked(schema: unknown, value: unknown, what: string): void {
  const parsed = (schema as { safeParse(input: unknown): { success: boolean; error?: unknown } }).safeParse(value);
  if (parsed.success) return;
  const error = parsed.error as Parameters<typeof describeIssues>[0];
  throw new HttpError({
    status: 400,
    code: 'invalid_request',
    message: `${what}: ${describeIssues(error)}`,
    details: issueLines(error),
  });
}

function checkedJson(bytes: Uint8Array | null, schema: unknown): void {
  const text = bytes ? new TextDecoder().decode(bytes) : '';
  if (nestsDeeperThan(text)) {
    throw new HttpError({
      status: 400,
      code: 'json_too_deep',
      message: `JSON bodies may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError({
      status: 400,
      code: 'invalid_json',
      message: `the body is not valid JSON: ${(error as Error).message}`,
    });
  }
  checked(schema, value, 'the body');
}

/** The request the handler receives: bounded, checked, without the caller's credential. */
export async function checkedEndpointRequest(
  raw: Request,
  definition: ThreadEndpointDefinition,
  limit: number,
): Promise<Request> {
  const url = new URL(raw.url);
  if (definition.query) checked(definition.query, Object.fromEntries(url.searchParams), 'the query');
  const carriesBody = raw.method !== 'GET' && raw.method !== 'HEAD';
  const bytes = carriesBody ? await boundedBytes(raw, limit) : null;
  if (definition.body) checkedJson(bytes, definition.body);
  const headers = new Headers(raw.headers);
  for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return new Request(raw.url, { method: raw.method, headers, ...(bytes ? { body: bytes } : {}) });
}
