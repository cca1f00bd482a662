/**
 * Secrets inside bytes (EXE-8): the byte sequences a secret takes in the encodings a file commonly
 * uses, for content the text scrubber cannot read. Bytes that are not UTF-8 text (an archive, an
 * image, a database page) or text in UTF-16 cannot have a secret replaced without breaking what
 * surrounds it, so a write whose bytes hold one is refused instead (thread-files.ts).
 *
 * The forms looked for are every spelling the text scrubber knows (raw, JSON-escaped, percent-
 * encoded, base64), each in UTF-8, UTF-16LE and UTF-16BE, and the raw value in Latin-1 when it has
 * one. A secret compressed, encrypted or otherwise transformed is not in any of these forms, and is
 * not found: the scrubber keeps a secret from slipping out, it cannot stop code that holds the
 * secret from encoding it on purpose.
 */

const encoder = new TextEncoder();

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < text.length; index++) view.setUint16(index * 2, text.charCodeAt(index), littleEndian);
  return bytes;
}

/** Latin-1 bytes of a text made only of its characters (U+0000–U+00FF); null otherwise. */
function latin1(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0xff) return null;
    bytes[index] = code;
  }
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}

/** The byte sequences of a secret, given its text forms (the raw value first), without duplicates. */
export function secretByteForms(textForms: readonly string[], raw: string): Uint8Array[] {
  const candidates = textForms.flatMap((form) => [encoder.encode(form), utf16(form, true), utf16(form, false)]);
  const single = latin1(raw);
  if (single) candidates.push(single);
  const forms: Uint8Array[] = [];
  for (const candidate of candidates) {
    if (candidate.byteLength > 0 && !forms.some((known) => sameBytes(known, candidate))) forms.push(candidate);
  }
  return forms;
}

/** Whether `needle` occurs in `bytes`. */
function occurs(bytes: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0] as number;
  const last = bytes.byteLength - needle.byteLength;
  for (let start = bytes.indexOf(first); start !== -1 && start <= last; start = bytes.indexOf(first, start + 1)) {
    let index = 1;
    while (index < needle.byteLength && bytes[start + index] === needle[index]) index++;
    if (index === needle.byteLength) return true;
  }
  return false;
}

/** Whether any of the forms occurs in the bytes. */
export function holdsAny(bytes: Uint8Array, forms: readonly Uint8Array[]): boolean {
  return forms.some((form) => occurs(bytes, form));
}
