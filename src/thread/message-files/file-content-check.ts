/**
 * Whether a file's bytes are what its sender says (MSG-6): an image or a PDF must start with its
 * format's signature (a "PNG" that is an HTML page is refused, so a model is never handed a page
 * dressed as a picture), an image's sides are read from its header and held to the limit (a small
 * file declaring a huge canvas is a decompression bomb for whoever draws it), and a text type must be
 * UTF-8 text. Only the file's first piece is looked at: it is what the upload holds anyway before it
 * stores a byte (up to 8 MiB, which any real header fits in).
 *
 * Dimensions come from `image-size` (pure JavaScript on Uint8Array, no Node APIs in its main entry,
 * so it runs on workerd as in Node).
 */
import { imageSize } from 'image-size';
import { looksBinary } from '../../engine/files/index.js';
import type { MessageFileLimits } from '../../engine/registry/index.js';
import { MessageFileRefused } from './message-file-refusals.js';

const SIGNATURES: Readonly<Record<string, (head: Uint8Array) => boolean>> = {
  'image/png': (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  'image/gif': (head) => ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a'),
  'image/webp': (head) => ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP'),
  // PDF readers look for the header within the first kilobyte; anything before it is junk a reader skips.
  'application/pdf': (head) => indexOfAscii(head.subarray(0, 1024), '%PDF-') !== -1,
};

/** What image-size calls each type this runtime takes. */
const SIZE_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const TEXT_TYPES = new Set(['application/json']);

function startsWith(head: Uint8Array, bytes: readonly number[]): boolean {
  return bytes.every((byte, index) => head[index] === byte);
}

function ascii(head: Uint8Array, at: number, text: string): boolean {
  for (let index = 0; index < text.length; index++) if (head[at + index] !== text.charCodeAt(index)) return false;
  return true;
}

function indexOfAscii(head: Uint8Array, text: string): number {
  for (let at = 0; at + text.length <= head.length; at++) if (ascii(head, at, text)) return at;
  return -1;
}

export interface CheckedContent {
  width?: number;
  height?: number;
}

function mismatch(name: string, mimeType: string, why: string): MessageFileRefused {
  return new MessageFileRefused({
    status: 400,
    code: 'file_type_mismatch',
    message: `${name} is declared ${mimeType}, but ${why}`,
  });
}

/** The image's sides, or a refusal when its header cannot be read or they are past the limit. */
function imageSides(name: string, mimeType: string, head: Uint8Array, limits: MessageFileLimits): CheckedContent {
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(head);
  } catch {
    throw mismatch(name, mimeType, 'its header does not say how large it is');
  }
  const { width, height } = size;
  if (size.type !== SIZE_TYPES[mimeType] || !width || !height) {
    throw mismatch(name, mimeType, 'its header does not say how large it is');
  }
  if (width > limits.maxImageSide || height > limits.maxImageSide) {
    throw new MessageFileRefused({
      status: 400,
      code: 'image_too_large',
      message: `${name} is ${width}×${height} pixels; images may have at most ${limits.maxImageSide} pixels a side`,
      details: { width, height, max_side: limits.maxImageSide },
    });
  }
  return { width, height };
}

/**
 * Checks `head`, the first bytes of a file declared `mimeType` (already one the limits accept): its
 * sides for an image, nothing more for other types. Throws MessageFileRefused.
 */
export function checkFileContent(
  name: string,
  mimeType: string,
  head: Uint8Array,
  limits: MessageFileLimits,
): CheckedContent {
  const signature = SIGNATURES[mimeType];
  if (signature && !signature(head)) throw mismatch(name, mimeType, 'its bytes are not one');
  if (mimeType in SIZE_TYPES) return imageSides(name, mimeType, head, limits);
  if ((mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType)) && looksBinary(head)) {
    throw mismatch(name, mimeType, 'its bytes are not UTF-8 text');
  }
  return {};
}
