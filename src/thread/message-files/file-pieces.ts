/**
 * A file's bytes regrouped into pieces of one fixed size as they arrive (MSG-3): R2's multipart
 * upload takes parts of at least 5 MiB, all but the last of one size, while a request body comes in
 * chunks of whatever size the network gives. Bytes are counted as they pass, and the count past the
 * file limit throws at once, before the piece in hand is even full; at most one piece is held while
 * the one before it is sent.
 */

/** The size of each part of an R2 multipart upload: above R2's 5 MiB floor, small against the Worker's memory. */
export const PIECE_BYTES = 8 * 1024 * 1024;

export async function* inPieces(
  source: AsyncIterable<Uint8Array>,
  size: number,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<Uint8Array> {
  let piece = new Uint8Array(size);
  let filled = 0;
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    let at = 0;
    while (at < chunk.length) {
      const taken = Math.min(size - filled, chunk.length - at);
      piece.set(chunk.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === size) {
        yield piece;
        piece = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield piece.subarray(0, filled);
}
