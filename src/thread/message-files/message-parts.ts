/**
 * A message's content from JSON parts (MSG-1): text parts joined, and each file part — inline
 * base64, a thread path, an image URL — stored or referenced in the order given. Base64 is checked
 * before it is decoded (its alphabet, its padding, the size it decodes to), so a malformed or
 * oversized string is refused without being turned into bytes.
 */
import type { AttachmentRef } from '../../spec/index.js';
import type { MessagePart } from '../bindings/index.js';
import type { IntakeDesk, MessageDraft } from './message-draft.js';
import { fileTooLarge, MessageFileRefused, tooManyFiles } from './message-file-refusals.js';
import { type IncomingFile, storeMessageFile } from './message-file-store.js';
import { referencedFile } from './referenced-file.js';
import { fetchImage } from './url-image.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A name for a file sent without one: its kind and the extension its type usually has. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};

function invalidBase64(name: string, why: string): MessageFileRefused {
  return new MessageFileRefused({ status: 400, code: 'invalid_base64', message: `${name}: ${why}` });
}

function decodeBase64(name: string, data: string, maxBytes: number, tooLarge: () => Error): Uint8Array {
  if (data.length % 4 !== 0 || !BASE64.test(data)) {
    throw invalidBase64(name, 'data is not base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4)');
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if ((data.length / 4) * 3 - padding > maxBytes) throw tooLarge();
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function inlineFile(part: Extract<MessagePart, { data: string }>, desk: IntakeDesk): IncomingFile {
  const mimeType = part.mime_type.split(';')[0]?.trim().toLowerCase() ?? '';
  const name = part.name ?? `${part.type}.${EXTENSIONS[mimeType] ?? 'bin'}`;
  const limits = desk.limits;
  const bytes = decodeBase64(name, part.data, limits.maxFileBytes, () => fileTooLarge(name, limits));
  return { name, mimeType, bytes: once(bytes), image: part.type === 'image' };
}

async function attachmentOf(part: Exclude<MessagePart, { type: 'text' }>, desk: IntakeDesk, draft: MessageDraft) {
  const { files, limits } = desk;
  if ('path' in part) {
    draft.identity.push(['path', part.path]);
    return referencedFile(files, part.path, limits, part.type === 'image');
  }
  const incoming = 'url' in part ? await fetchImage(desk.env, part.url) : inlineFile(part, desk);
  const stored: AttachmentRef = await storeMessageFile(files, incoming, limits);
  draft.created.push(stored.path);
  draft.identity.push('url' in part ? ['url', part.url] : [incoming.name, stored.mimeType, stored.size]);
  return stored;
}

/** Fills `draft` from `parts`; throws a refusal, leaving in `draft.created` what it stored. */
export async function gatherParts(parts: readonly MessagePart[], desk: IntakeDesk, draft: MessageDraft): Promise<void> {
  const fileCount = parts.filter((part) => part.type !== 'text').length;
  if (fileCount > desk.limits.maxFiles) throw tooManyFiles(desk.limits);
  const texts: string[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else draft.attachments.push(await attachmentOf(part, desk, draft));
  }
  draft.text = texts.join('\n\n');
}
