/**
 * What one file of a user's message becomes in the model's request (MSG-10..MSG-13): an image part,
 * a PDF file part, the text of a text file, or a note naming the file for the model to read with a
 * tool. Which one depends on what the model reads, the file's type and size, and whether its bytes
 * are what its type says: a provider refuses a request holding a broken image or PDF, and would
 * then refuse every later request of the thread too, so such a file is only named.
 */
import type { AttachmentRef, ModelContentPart, ModelDefinition } from '../../spec/index.js';
import { markUntrustedAs } from '../execute/index.js';

/** Images larger than this are named, not sent: most providers refuse them and they bloat every request. */
export const MAX_INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
/** PDFs larger than this are named, not sent (Gemini takes at most 20 MB of inline data a request). */
export const MAX_INLINE_PDF_BYTES = 10 * 1024 * 1024;
/** Images and PDFs sent whole in one request, all messages together; past it, newer messages come first. */
export const MAX_INLINE_BYTES_PER_REQUEST = 15 * 1024 * 1024;
/** A text file is sent up to this many bytes, then cut with a note saying so. */
export const MAX_INLINE_TEXT_BYTES = 100 * 1024;

/** The text types sent as text. */
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'application/json']);
const PDF = 'application/pdf';

/** What a model reads of a user's files. */
export interface FileReading {
  images: boolean;
  pdf: boolean;
}

/** A `vision` model reads images and, unless it says otherwise or runs on Workers AI, PDFs. */
export function fileReading(model: ModelDefinition): FileReading {
  const images = model.vision === true;
  return { images, pdf: model.pdf ?? (images && model.provider !== 'workers-ai') };
}

/** How a file is sent: its bytes as a part, its text, or only a note. */
export type FileSending = 'image' | 'pdf' | 'text' | 'note';

/** The mime type without parameters, in lower case (`text/plain; charset=utf-8` is `text/plain`). */
function baseType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** How `ref` is sent to a model that reads `reading`, judged on its declared type and size. */
export function sendingOf(ref: AttachmentRef, reading: FileReading): FileSending {
  const type = baseType(ref.mimeType);
  if (TEXT_TYPES.has(type)) return 'text';
  if (type.startsWith('image/')) return reading.images && ref.size <= MAX_INLINE_IMAGE_BYTES ? 'image' : 'note';
  if (type === PDF) return reading.pdf && ref.size <= MAX_INLINE_PDF_BYTES ? 'pdf' : 'note';
  return 'note';
}

/** A size as people read it: `812 bytes`, `24 KB`, `3.1 MB`. */
export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What the model is told of a file it is not sent: where it is, so a tool can read it. */
export function fileNote(ref: AttachmentRef, why = 'read it with a tool'): ModelContentPart {
  return { type: 'text', text: `[file attached: ${ref.path} (${ref.mimeType}, ${readableSize(ref.size)}) — ${why}]` };
}

/** The label before a file sent whole, so the model knows its path. */
function fileLabel(ref: AttachmentRef): ModelContentPart {
  return { type: 'text', text: `[file attached: ${ref.path} (${ref.mimeType}, ${readableSize(ref.size)})]` };
}

/** The first bytes each image type and PDF start with. */
const SIGNATURES: Record<string, readonly (readonly (number | null)[])[]> = {
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  // RIFF, four bytes of length, WEBP.
  'image/webp': [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  [PDF]: [[0x25, 0x50, 0x44, 0x46, 0x2d]],
};

/** Whether `bytes` start as their declared type's do; a type without a known signature never passes. */
export function bytesMatchType(bytes: Uint8Array, mimeType: string): boolean {
  const signatures = SIGNATURES[baseType(mimeType)];
  if (!signatures) return false;
  return signatures.some(
    (signature) =>
      bytes.length >= signature.length && signature.every((byte, index) => byte === null || bytes[index] === byte),
  );
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return btoa(binary);
}

/** An image or PDF sent whole: its label, then its bytes as the part its kind takes. */
export function binaryParts(ref: AttachmentRef, sending: 'image' | 'pdf', bytes: Uint8Array): ModelContentPart[] {
  const url = `data:${sending === 'pdf' ? PDF : baseType(ref.mimeType)};base64,${toBase64(bytes)}`;
  const part: ModelContentPart =
    sending === 'image'
      ? { type: 'image_url', image_url: { url } }
      : { type: 'file', file: { filename: ref.name, file_data: url } };
  return [fileLabel(ref), part];
}

/**
 * A text file's text (its first `MAX_INLINE_TEXT_BYTES` when larger, `size` being its whole size),
 * marked as coming from outside the thread like an uploaded file read by a tool (INJ-1).
 */
export function textPart(ref: AttachmentRef, head: Uint8Array, size: number): ModelContentPart {
  const cut = size > head.length;
  // A cut may fall inside a character: the decoder writes a replacement character there.
  const text = new TextDecoder().decode(head);
  const label = `[file attached: ${ref.path} (${ref.mimeType}, ${readableSize(size)})${
    cut ? `, its first ${readableSize(head.length)} follow — read the rest with a tool` : ''
  }]`;
  return { type: 'text', text: `${label}\n${markUntrustedAs(text, `The file ${ref.path}`)}` };
}

/** A user message's content when its files are only named (no bytes loaded): its text, then a note per file. */
export function notedContent(content: string, refs: readonly AttachmentRef[]): ModelContentPart[] {
  const parts: ModelContentPart[] = content === '' ? [] : [{ type: 'text', text: content }];
  for (const ref of refs) parts.push(fileNote(ref));
  return parts;
}
