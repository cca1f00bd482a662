/**
 * The check of a message file's bytes against its declared type (MSG-6), in Node as in workerd
 * (image-size is pure JavaScript over a Uint8Array): each image format's sides read from its header,
 * a signature that does not match refused, a canvas past the limit refused, text that is not UTF-8
 * refused.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGE_FILE_LIMITS } from '../../../src/engine/registry/index.js';
import { checkFileContent } from '../../../src/thread/message-files/file-content-check.js';
import { MessageFileRefused } from '../../../src/thread/message-files/message-file-refusals.js';
import { pdf, png, pngHeader, text } from '../../support/message-files.js';

const LIMITS = DEFAULT_MESSAGE_FILE_LIMITS;

const le16 = (value: number) => [value & 0xff, value >> 8];
const be16 = (value: number) => [value >> 8, value & 0xff];
const le24 = (value: number) => [value & 0xff, (value >> 8) & 0xff, value >> 16];
const ascii = (value: string) => [...value].map((char) => char.charCodeAt(0));

/** A JPEG's start: SOI, a JFIF APP0, and a baseline frame header naming its sides. */
function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0, 17, 8, ...be16(height), ...be16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

function gif(width: number, height: number): Uint8Array {
  return new Uint8Array([...ascii('GIF89a'), ...le16(width), ...le16(height), 0, 0, 0, 0x3b]);
}

function webp(width: number, height: number): Uint8Array {
  const vp8x = [...ascii('VP8X'), 10, 0, 0, 0, 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)];
  return new Uint8Array([...ascii('RIFF'), ...[vp8x.length + 4, 0, 0, 0], ...ascii('WEBP'), ...vp8x]);
}

function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof MessageFileRefused) return error.apiError.code;
    throw error;
  }
  return 'accepted';
}

describe('message file content check', () => {
  it("MSG-6: each image type's sides come from its header", () => {
    expect(checkFileContent('a.png', 'image/png', png(7, 3), LIMITS)).toEqual({ width: 7, height: 3 });
    expect(checkFileContent('a.jpg', 'image/jpeg', jpeg(640, 480), LIMITS)).toEqual({ width: 640, height: 480 });
    expect(checkFileContent('a.gif', 'image/gif', gif(12, 34), LIMITS)).toEqual({ width: 12, height: 34 });
    expect(checkFileContent('a.webp', 'image/webp', webp(300, 200), LIMITS)).toEqual({ width: 300, height: 200 });
    expect(checkFileContent('r.pdf', 'application/pdf', pdf(), LIMITS)).toEqual({});
    expect(checkFileContent('n.md', 'text/markdown', text('# é\n'), LIMITS)).toEqual({});
  });

  it('MSG-6: a signature of another type, an unreadable header, a huge canvas or binary text is refused', () => {
    expect(refusal(() => checkFileContent('a.jpg', 'image/jpeg', png(2, 2), LIMITS))).toBe('file_type_mismatch');
    expect(refusal(() => checkFileContent('a.png', 'image/png', gif(2, 2), LIMITS))).toBe('file_type_mismatch');
    expect(refusal(() => checkFileContent('a.webp', 'image/webp', text('RIFF....WEBPjunk'), LIMITS))).toBe(
      'file_type_mismatch',
    );
    expect(refusal(() => checkFileContent('a.png', 'image/png', png(2, 2).slice(0, 8), LIMITS))).toBe(
      'file_type_mismatch',
    );
    expect(refusal(() => checkFileContent('r.pdf', 'application/pdf', text('<html>'), LIMITS))).toBe(
      'file_type_mismatch',
    );
    expect(refusal(() => checkFileContent('a.png', 'image/png', pngHeader(8001, 1), LIMITS))).toBe('image_too_large');
    expect(refusal(() => checkFileContent('a.gif', 'image/gif', gif(1, 9000), LIMITS))).toBe('image_too_large');
    expect(refusal(() => checkFileContent('a.jpg', 'image/jpeg', jpeg(65535, 65535), LIMITS))).toBe('image_too_large');
    expect(refusal(() => checkFileContent('t.txt', 'text/plain', new Uint8Array([0x66, 0, 0x67]), LIMITS))).toBe(
      'file_type_mismatch',
    );
    expect(
      refusal(() => checkFileContent('d.json', 'application/json', new Uint8Array([0xff, 0xfe, 0x41]), LIMITS)),
    ).toBe('file_type_mismatch');
  });
});
