/**
 * A message's content from a `multipart/form-data` body (MSG-2, MSG-3): a `content` field (its
 * text), an optional `on_busy` field, and file parts named `file`, each streamed to R2 as it arrives.
 * Any other field, a field given twice, a field longer than its limit, or a body that is malformed
 * or breaks off midway is refused (`invalid_multipart`, `invalid_on_busy`); what the body stored so
 * far is left in the draft for the intake to remove.
 */
import { isOnBusy, ON_BUSY_VALUES } from '../../spec/internal.js';
import type { IntakeDesk, MessageDraft } from './message-draft.js';
import { invalidMultipart, MessageFileRefused, tooManyFiles } from './message-file-refusals.js';
import { storeMessageFile } from './message-file-store.js';
import { MultipartError, type MultipartPart, multipartBoundary, readMultipart } from './multipart-reader.js';

/** The text of a message, as a JSON body's `content` may have it. */
const MAX_CONTENT_CHARACTERS = 1_000_000;
/** A part's header block: a name, a file name and a type take far less. */
const MAX_HEADER_BYTES = 16 * 1024;

/** The body with its stream's own failure (a client gone midway) turned into a refusal of the body. */
function guarded(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value instanceof Uint8Array ? value : new Uint8Array(value));
      } catch (error) {
        controller.error(new MultipartError(`the body broke off: ${(error as Error).message ?? error}`));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A text field's value, refused past `max` bytes. */
async function fieldText(name: string, body: AsyncIterable<Uint8Array>, max: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > max * 4) throw invalidMultipart(`the ${name} field is longer than ${max} characters`);
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  if (text.length > max) throw invalidMultipart(`the ${name} field is longer than ${max} characters`);
  return text;
}

/**
 * A file part's bytes, or null for what a browser sends for a file input left empty: a part with an
 * empty file name and no bytes, which is no file.
 */
async function unlessEmptyInput(part: MultipartPart): Promise<AsyncIterable<Uint8Array> | null> {
  if (part.filename !== '') return part.body;
  const iterator = part.body[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return null;
  return (async function* () {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
}

function onBusyOf(value: string) {
  if (isOnBusy(value)) return value;
  throw new MessageFileRefused({
    status: 400,
    code: 'invalid_on_busy',
    message: `on_busy must be one of ${ON_BUSY_VALUES.join(', ')}`,
  });
}

/** Fills `draft` from a multipart body; throws a refusal, leaving in `draft.created` what it stored. */
export async function gatherMultipart(
  contentType: string | undefined,
  body: ReadableStream<Uint8Array> | null,
  desk: IntakeDesk,
  draft: MessageDraft,
): Promise<void> {
  const boundary = multipartBoundary(contentType);
  if (!boundary || !body) throw invalidMultipart('a multipart/form-data body needs its boundary and a body');
  const { files, limits } = desk;
  const seen = new Set<string>();
  const parts = readMultipart(guarded(body), boundary, {
    maxHeaderBytes: MAX_HEADER_BYTES,
    maxParts: limits.maxFiles + 3,
  });
  for await (const part of parts) {
    if (part.name === 'file') {
      const bytes = await unlessEmptyInput(part);
      if (!bytes) continue;
      if (draft.attachments.length >= limits.maxFiles) throw tooManyFiles(limits);
      const name = part.filename || 'file';
      // Without a type (or with the generic one), the name's extension gives it (message-file-store.ts).
      const mimeType = part.contentType ?? '';
      const stored = await storeMessageFile(files, { name, mimeType, bytes }, limits);
      draft.created.push(stored.path);
      draft.attachments.push(stored);
      draft.identity.push([name, stored.mimeType, stored.size]);
      continue;
    }
    if (seen.has(part.name)) throw invalidMultipart(`the ${part.name} field is given twice`);
    seen.add(part.name);
    if (part.name === 'content') draft.text = await fieldText('content', part.body, MAX_CONTENT_CHARACTERS);
    else if (part.name === 'on_busy') draft.onBusy = onBusyOf(await fieldText('on_busy', part.body, 64));
    else
      throw invalidMultipart(
        `unknown field ${JSON.stringify(part.name.slice(0, 100))}: send content, on_busy and file`,
      );
  }
}
