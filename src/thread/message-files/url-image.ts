/**
 * An image part given by URL (MSG-1): fetched once by the runtime, through the deployment's egress
 * policy exactly as a tool's `state.fetch` is (every hop, redirects included, checked before a byte
 * is sent; no private, loopback or metadata address unless the deployment allows it), then stored
 * like an inline image under the same limits. Anything that keeps the image from arriving whole — a
 * refused URL, no answer, an answer that is not 2xx, a time limit — is 400
 * `attachment_fetch_failed`, naming the cause.
 */

import { egressPolicy, outboundFetch } from '../../engine/egress/index.js';
import { EgressRefused } from '../../spec/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { fetchFailed } from './message-file-refusals.js';
import type { IncomingFile } from './message-file-store.js';

/** How long the image may take to start arriving. */
const FETCH_TIMEOUT_MS = 30_000;

/** The image's name: the last segment of the URL's path, or `image`. */
function nameOf(url: URL): string {
  const segment = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment) || 'image';
  } catch {
    return segment || 'image';
  }
}

/** The answer's bytes; a body cut off midway is the fetch failing, like no answer at all. */
async function* bodyOf(response: Response, raw: string): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        throw fetchFailed(raw, `the answer broke off: ${(error as Error).message ?? error}`);
      }
      if (read.done) return;
      yield read.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The image at `raw`, arriving; throws `attachment_fetch_failed` when it cannot be fetched. */
export async function fetchImage(env: RuntimeEnv, raw: string): Promise<IncomingFile> {
  let response: Response;
  try {
    const egress = egressPolicy(env.EGRESS_ALLOW_HOSTS ?? '');
    response = await outboundFetch({ egress }, raw, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    const why = error instanceof EgressRefused ? error.message : `${(error as Error).message ?? error}`;
    throw fetchFailed(raw, why);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw fetchFailed(raw, `the server answered ${response.status}`);
  }
  const url = new URL(response.url || raw);
  return {
    name: nameOf(url),
    mimeType: response.headers.get('content-type') ?? '',
    bytes: bodyOf(response, raw),
    image: true,
  };
}
