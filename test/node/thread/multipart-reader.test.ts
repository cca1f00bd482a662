/**
 * The streaming multipart reader (MSG-3): parts come out whole whatever the chunking, a file's bytes
 * come in pieces, and a hostile body — headers that never end, a preamble that never ends, too many
 * parts, a body cut off midway — is refused having read only a bounded amount of it.
 */
import { describe, expect, it } from 'vitest';
import {
  MultipartError,
  multipartBoundary,
  readMultipart,
} from '../../../src/thread/message-files/multipart-reader.js';

const LIMITS = { maxHeaderBytes: 1024, maxParts: 8 };
const encoder = new TextEncoder();

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++] as Uint8Array);
      else controller.close();
    },
  });
}

/** `bytes` cut into pieces of `size` bytes. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

function join(...parts: (string | Uint8Array)[]): Uint8Array {
  const encoded = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const out = new Uint8Array(encoded.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of encoded) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function collect(stream: ReadableStream<Uint8Array>, boundary: string) {
  const parts: { name: string; filename: string | null; contentType: string | null; data: Uint8Array }[] = [];
  for await (const part of readMultipart(stream, boundary, LIMITS)) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of part.body) chunks.push(chunk);
    parts.push({ name: part.name, filename: part.filename, contentType: part.contentType, data: join(...chunks) });
  }
  return parts;
}

// Binary data holding near-misses of the delimiter: CR LF, dashes, the boundary without its dashes.
const BINARY = join(new Uint8Array([0, 13, 10, 45, 45, 255, 13, 10, 45]), 'XyZ\r\n-XyZ', new Uint8Array([13, 13, 10]));

const FORM = join(
  'preamble to ignore\r\n',
  '--XyZ\r\n',
  'Content-Disposition: form-data; name="content"\r\n\r\n',
  'Hello\r\nthere',
  '\r\n--XyZ\r\n',
  'Content-Disposition: form-data; name="file"; filename="a;b.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
  BINARY,
  '\r\n--XyZ  \r\n',
  `Content-Disposition: form-data; name="file"; filename="x"; filename*=UTF-8''%C3%A9t%C3%A9.txt\r\n\r\n`,
  '',
  '\r\n--XyZ--\r\nepilogue',
);

describe('multipart reader', () => {
  it('MSG-3: fields and files come out the same whatever the chunk sizes', async () => {
    for (const size of [1, 2, 3, 7, 16, 64, FORM.length]) {
      const parts = await collect(body(pieces(FORM, size)), 'XyZ');
      expect(
        parts.map(({ name, filename, contentType }) => ({ name, filename, contentType })),
        `chunks of ${size}`,
      ).toEqual([
        { name: 'content', filename: null, contentType: null },
        { name: 'file', filename: 'a;b.bin', contentType: 'application/octet-stream' },
        { name: 'file', filename: 'été.txt', contentType: null },
      ]);
      expect(new TextDecoder().decode(parts[0]?.data)).toBe('Hello\r\nthere');
      expect(parts[1]?.data).toEqual(BINARY);
      expect(parts[2]?.data.length).toBe(0);
    }
  });

  it("MSG-3: a part's bytes come in pieces as they arrive, never gathered whole", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(7);
    let sent = 0;
    const total = 64;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0)
          controller.enqueue(
            encoder.encode('--b\r\nContent-Disposition: form-data; name="file"; filename="big"\r\n\r\n'),
          );
        if (sent < total) controller.enqueue(chunk);
        else {
          controller.enqueue(encoder.encode('\r\n--b--'));
          controller.close();
        }
        sent++;
      },
    });
    let largest = 0;
    let bytes = 0;
    for await (const part of readMultipart(stream, 'b', LIMITS)) {
      for await (const piece of part.body) {
        largest = Math.max(largest, piece.length);
        bytes += piece.length;
      }
    }
    expect(bytes).toBe(total * chunk.length);
    expect(largest).toBeLessThanOrEqual(chunk.length + 64);
  });

  it('MSG-3: a part left unread is skipped', async () => {
    const names: string[] = [];
    for await (const part of readMultipart(body([FORM]), 'XyZ', LIMITS)) names.push(part.name);
    expect(names).toEqual(['content', 'file', 'file']);
  });

  it('MSG-3: headers that never end are refused after a bounded read', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = encoder.encode(pulled === 0 ? '--b\r\nX-Long: ' : 'aaaaaaaaaaaaaaaa');
        pulled += piece.length;
        controller.enqueue(piece);
      },
    });
    await expect(collect(endless, 'b')).rejects.toThrow(MultipartError);
    expect(pulled).toBeLessThan(LIMITS.maxHeaderBytes + 64);
  });

  it('MSG-3: a preamble that never reaches a boundary is refused after a bounded read', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 100;
        controller.enqueue(new Uint8Array(100).fill(65));
      },
    });
    await expect(collect(endless, 'b')).rejects.toThrow(/before the first boundary/);
    expect(pulled).toBeLessThan(LIMITS.maxHeaderBytes + 200);
  });

  it('MSG-3: a body cut off inside a part, or with no closing boundary, is refused', async () => {
    // Cut inside the binary file's bytes.
    const cut = FORM.slice(0, FORM.length - 60);
    expect(new TextDecoder().decode(cut)).not.toContain('--XyZ--');
    await expect(collect(body([cut]), 'XyZ')).rejects.toThrow(MultipartError);
    await expect(
      collect(body([encoder.encode('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nx')]), 'XyZ'),
    ).rejects.toThrow(/ended inside a part/);
    await expect(collect(body([encoder.encode('')]), 'XyZ')).rejects.toThrow(MultipartError);
  });

  it('MSG-3: a stream that errors midway passes its error on', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode('--b\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nabc'),
        );
        controller.error(new Error('client went away'));
      },
    });
    await expect(collect(failing, 'b')).rejects.toThrow('client went away');
  });

  it('MSG-3: too many parts, a part without a name or Content-Disposition, text after a boundary: refused', async () => {
    const many = join(
      ...Array.from({ length: 9 }, () => '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n'),
      '--b--',
    );
    await expect(collect(body([many]), 'b')).rejects.toThrow(/more than 8 parts/);
    await expect(
      collect(body([encoder.encode('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--')]), 'b'),
    ).rejects.toThrow(/no field name/);
    await expect(
      collect(body([encoder.encode('--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--')]), 'b'),
    ).rejects.toThrow(/no Content-Disposition/);
    await expect(collect(body([encoder.encode('--bogus\r\n\r\nx\r\n--b--')]), 'b')).rejects.toThrow(/text after it/);
  });

  it('MSG-3: the boundary is read from the Content-Type, quoted or bare, and a missing or unfit one is null', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
    expect(multipartBoundary('multipart/form-data; boundary=')).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull();
    expect(multipartBoundary('multipart/form-data; boundary=a\u0000b')).toBeNull();
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});
