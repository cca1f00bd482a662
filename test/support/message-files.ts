/**
 * Files for the tests of files on messages: real images and a real PDF made in a few bytes (a PNG
 * of any size whose pixels are one colour, compressed; its header alone for the "huge canvas"
 * cases), base64 as a browser sends it, and a multipart body built the way a browser builds one,
 * whose file parts may be streamed from a generator so a test can send more than it could hold.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function chunk(type: string, data: Uint8Array): number[] {
  const typed = new Uint8Array([...type].map((char) => char.charCodeAt(0)).concat([...data]));
  return [...u32(data.length), ...typed, ...u32(crc32(typed))];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function header(width: number, height: number): number[] {
  return chunk('IHDR', new Uint8Array([...u32(width), ...u32(height), 8, 2, 0, 0, 0]));
}

/** A PNG's signature and header only, declaring `width` × `height`: enough for any reader of sizes. */
export function pngHeader(width: number, height: number): Uint8Array {
  return new Uint8Array([...SIGNATURE, ...header(width, height), ...chunk('IEND', new Uint8Array())]);
}

/** A whole, valid PNG of `width` × `height` RGB pixels, all black (zlib stored blocks). */
export function png(width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  const blocks: number[] = [0x78, 0x01];
  for (let at = 0; at < raw.length || at === 0; at += 65535) {
    const piece = raw.subarray(at, Math.min(raw.length, at + 65535));
    const last = at + 65535 >= raw.length ? 1 : 0;
    blocks.push(
      last,
      piece.length & 0xff,
      piece.length >> 8,
      ~piece.length & 0xff,
      (~piece.length >> 8) & 0xff,
      ...piece,
    );
    if (last) break;
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  blocks.push(...u32(((b << 16) | a) >>> 0));
  return new Uint8Array([
    ...SIGNATURE,
    ...header(width, height),
    ...chunk('IDAT', new Uint8Array(blocks)),
    ...chunk('IEND', new Uint8Array()),
  ]);
}

/** A small, valid one-page PDF. */
export function pdf(text = 'Hello'): Uint8Array {
  const body = `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R>>endobj\n4 0 obj<</Length ${text.length + 24}>>stream\nBT /F1 12 Tf 20 100 Td (${text}) Tj ET\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

export function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

/** A field or a file of a multipart body; a file's bytes may be a generator. */
export type FormPart =
  | { field: string; value: string }
  | { file: string; type?: string; bytes: Uint8Array | (() => AsyncIterable<Uint8Array>) };

export const BOUNDARY = 'test-boundary-7MA4YWxkTrZu0gW';

/**
 * A multipart body as a stream built as it is read, with its Content-Type. `failAfter`: the stream
 * errors once that many bytes have gone (a client gone midway).
 */
export function multipart(parts: FormPart[], options: { failAfter?: number } = {}) {
  const encoder = new TextEncoder();
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      if ('field' in part) {
        yield encoder.encode(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        );
        continue;
      }
      const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`;
      yield encoder.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${part.file}"\r\n${type}\r\n`,
      );
      if (part.bytes instanceof Uint8Array) yield part.bytes;
      else yield* part.bytes();
      yield encoder.encode('\r\n');
    }
    yield encoder.encode(`--${BOUNDARY}--\r\n`);
  }
  const source = pieces();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) return controller.close();
      if (options.failAfter !== undefined && sent + next.value.length > options.failAfter) {
        controller.enqueue(next.value.slice(0, options.failAfter - sent));
        sent = options.failAfter;
        return controller.error(new Error('the client went away'));
      }
      sent += next.value.length;
      controller.enqueue(next.value);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}
