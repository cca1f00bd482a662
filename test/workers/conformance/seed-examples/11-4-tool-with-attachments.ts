import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Generate a PNG image from the given prompt',
  args: z.object({
    prompt: z.string().describe('Image generation prompt'),
    width: z.number().default(512),
    height: z.number().default(512),
  }),
  execute: async (state, args) => {
    const image = await generateImage(args.prompt, args.width, args.height);
    return {
      status: 'success',
      result: `Generated image for: "${args.prompt}"`,
      attachments: [{
        name: `generated-${Date.now()}.png`,
        mimeType: 'image/png',
        data: image.toBase64(),
        width: args.width,
        height: args.height,
      }],
    };
  },
});

// Stands in for the outside service (an image generator): answers with a real PNG of the requested
// size, 8-bit RGB, a gradient coloured by the prompt, its pixel data zlib-compressed.
async function generateImage(prompt: string, width: number, height: number) {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > 1 << 24) {
    throw new Error(`generateImage: cannot make a ${width}x${height} image`);
  }
  let tint = 7;
  for (const char of prompt) tint = (tint * 31 + (char.codePointAt(0) ?? 0)) % 256;
  const stride = 1 + width * 3;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    // Each scanline starts with its filter type: 0, none.
    for (let x = 0; x < width; x++) {
      const at = y * stride + 1 + x * 3;
      pixels[at] = Math.floor((x * 255) / Math.max(1, width - 1));
      pixels[at + 1] = Math.floor((y * 255) / Math.max(1, height - 1));
      pixels[at + 2] = tint;
    }
  }
  const compressed = new Response(new Blob([pixels]).stream().pipeThrough(new CompressionStream('deflate')));
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, no filter, no interlace
  const bytes = joinBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', new Uint8Array(await compressed.arrayBuffer())),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
  return {
    bytes,
    toBase64(): string {
      let binary = '';
      for (let at = 0; at < bytes.length; at += 0x8000) {
        binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
      }
      return btoa(binary);
    },
  };
}

// Part of the stand-in: one PNG chunk, `length | type | data | CRC-32 of type and data`.
function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let index = 0; index < 4; index++) chunk[4 + index] = type.charCodeAt(index);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

// Part of the stand-in: the CRC-32 of PNG (ISO 3309, polynomial 0xEDB88320), table-driven.
function crc32(bytes: Uint8Array): number {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// Part of the stand-in: concatenates byte arrays.
function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
