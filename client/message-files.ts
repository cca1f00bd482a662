/**
 * Files sent with a user message (MSG-9): each a Blob, File, Uint8Array or ArrayBuffer with its name
 * and type. Small files go in the JSON body as base64 parts, which keeps the message one JSON
 * request; large ones, or any when asked, go as `multipart/form-data`, which the server streams to
 * the thread as it arrives, so a file of any size never has to fit in a JSON body (1 MiB) or in
 * memory as base64.
 */
import type { PostMessageBody } from './resources.js';

export interface MessageFile {
  /** The file's bytes. */
  data: Blob | Uint8Array | ArrayBuffer;
  /** Its name (a File's own name when omitted). */
  name?: string;
  /** Its MIME type (a Blob's own type when omitted). */
  type?: string;
}

/**
 * Files up to this many bytes together go as JSON: their base64 (4 bytes for 3) and the text stay
 * well under the server's 1 MiB JSON body limit.
 */
export const JSON_FILE_BYTES = 512 * 1024;

type ContentPart = Exclude<PostMessageBody['content'], string>[number];

function nameOf(file: MessageFile, index: number): string {
  if (file.name) return file.name;
  const own = (file.data as { name?: unknown }).name;
  return typeof own === 'string' && own !== '' ? own : `file-${index + 1}`;
}

function typeOf(file: MessageFile): string {
  const own = file.data instanceof Blob ? file.data.type : '';
  return file.type || own || 'application/octet-stream';
}

function sizeOf(file: MessageFile): number {
  return file.data instanceof Blob ? file.data.size : file.data.byteLength;
}

async function bytesOf(file: MessageFile): Promise<Uint8Array> {
  if (file.data instanceof Blob) return new Uint8Array(await file.data.arrayBuffer());
  return file.data instanceof Uint8Array ? file.data : new Uint8Array(file.data);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** Whether these files go as multipart: asked for, or too large together for a JSON body. */
export function sendsMultipart(files: readonly MessageFile[], asked: boolean | undefined): boolean {
  return asked === true || files.reduce((sum, file) => sum + sizeOf(file), 0) > JSON_FILE_BYTES;
}

/** The message's text parts: a string content, or the text parts of a list. */
function textParts(content: PostMessageBody['content']): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content;
}

/** The JSON body: the message's parts, then one base64 part per file, in order. */
export async function jsonBodyWithFiles(
  body: PostMessageBody,
  files: readonly MessageFile[],
): Promise<PostMessageBody> {
  const parts: ContentPart[] = [...textParts(body.content)];
  for (const [index, file] of files.entries()) {
    const type = typeOf(file);
    parts.push({
      type: type.startsWith('image/') ? 'image' : 'file',
      data: base64(await bytesOf(file)),
      mime_type: type,
      name: nameOf(file, index),
    });
  }
  return { ...body, content: parts };
}

/** The multipart body: `content` (the text), `on_busy`, and a `file` part per file, in order. */
export function formWithFiles(body: PostMessageBody, files: readonly MessageFile[]): FormData {
  const parts = textParts(body.content);
  if (parts.some((part) => part.type !== 'text')) {
    throw new TypeError('a multipart message carries its files as `files`: its content may hold text parts only');
  }
  const form = new FormData();
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
  if (text !== '') form.append('content', text);
  if (body.on_busy !== undefined) form.append('on_busy', body.on_busy);
  for (const [index, file] of files.entries()) {
    const blob = file.data instanceof Blob ? file.data : new Blob([file.data as Uint8Array<ArrayBuffer>]);
    form.append('file', new Blob([blob], { type: typeOf(file) }), nameOf(file, index));
  }
  return form;
}
