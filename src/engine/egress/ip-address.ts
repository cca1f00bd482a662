/**
 * IP address text → bytes, and prefix matching, for the egress policy (egress-policy.ts). The WHATWG
 * URL parser has already turned every spelling of a host into its canonical text (`2130706433`,
 * `0177.0.0.1` and `127.1` all become `127.0.0.1`; IPv6 literals are compressed and lowercased), so
 * this parser only needs to read that text: dotted-quad decimal IPv4, and IPv6 with at most one `::`
 * and an optional dotted-quad tail. Anything else is not an address (null), never a guess.
 */

/** 4 bytes for IPv4, 16 for IPv6, network order. */
export type AddressBytes = Uint8Array;

/** `a.b.c.d`, each part 0 to 255 written in decimal without leading zeros; null otherwise. */
export function parseIPv4(text: string): AddressBytes | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[index] = value;
  }
  return bytes;
}

/** Eight hex groups (or fewer around one `::`), the last two may be a dotted quad; no zone id. */
export function parseIPv6(text: string): AddressBytes | null {
  const halves = text.toLowerCase().split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string | undefined): number[] | null => {
    if (half === undefined || half === '') return [];
    const groups: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (!v4) return null;
        groups.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  if (!head || !tail) return null;
  const compressed = halves.length === 2;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return null;
  // A dotted quad may only end the address.
  if (compressed && head.length > 0 && (halves[0] as string).includes('.')) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [index, group] of groups.entries()) {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  }
  return bytes;
}

/** The dotted-quad text of 4 bytes. */
export function formatIPv4(bytes: AddressBytes): string {
  return [...bytes.subarray(0, 4)].join('.');
}

/** A network: the address bytes and how many leading bits are fixed. */
export interface Network {
  readonly bytes: AddressBytes;
  readonly prefixLength: number;
}

/** `10.0.0.0/8` or `fc00::/7` → a Network; throws on a malformed literal (these are written in code). */
export function parseNetwork(cidr: string): Network {
  const [address = '', length = ''] = cidr.split('/');
  const bytes = address.includes(':') ? parseIPv6(address) : parseIPv4(address);
  const prefixLength = Number(length);
  if (!bytes || !Number.isInteger(prefixLength) || prefixLength < 0 || prefixLength > bytes.length * 8) {
    throw new Error(`not a network: ${cidr}`);
  }
  return { bytes, prefixLength };
}

/** Whether `address` lies in `network` (both of the same family). */
export function inNetwork(address: AddressBytes, network: Network): boolean {
  if (address.length !== network.bytes.length) return false;
  let bits = network.prefixLength;
  for (let index = 0; bits > 0; index++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[index] as number) & mask) !== ((network.bytes[index] as number) & mask)) return false;
  }
  return true;
}
