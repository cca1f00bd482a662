/**
 * Public names known to lead inward (containment): names whose public DNS answers a loopback or
 * private address, recognised without a lookup. The policy cannot resolve names (a Worker has no
 * resolver, and an answer checked before the request can differ from the one the request gets), so
 * it refuses the two families that can be told from the name alone:
 *
 * - names that spell an address, the way wildcard DNS services answer them (`127.0.0.1.nip.io`,
 *   `10-0-0-1.sslip.io`, `app-192-168-1-1.nip.io`, `7f000001.nip.io`): the address spelled is judged
 *   as the address itself, so a public one passes;
 * - names registered to point at 127.0.0.1 for development (`localtest.me`, `lvh.me`, ...) and
 *   every name under them.
 *
 * Any other name can be pointed anywhere by whoever controls it; that cannot be enumerated, and is
 * left to the network the runtime runs on (docs/containment.md, "What a local workerd cannot
 * enforce").
 */
import { type AddressBytes, parseIPv4 } from './ip-address.js';
import { type AddressClass, classifyAddress } from './special-addresses.js';

/** Development names whose public DNS answers 127.0.0.1 for the name and every name under it. */
const LOOPBACK_DOMAINS = ['localtest.me', 'lvh.me', 'vcap.me', 'localho.st'];

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const DASHED = /(?:^|-)(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(?=-|$)/g;
const HEX = /(?:^|-)([0-9a-f]{8})$/;

function dotted(octets: readonly string[]): AddressBytes | null {
  return octets.length === 4 && octets.every((octet) => OCTET.test(octet)) ? parseIPv4(octets.join('.')) : null;
}

/** The addresses a name spells: four numeric labels in a row, a dashed label, an 8-digit hex label. */
function spelledAddresses(labels: readonly string[]): AddressBytes[] {
  const found: AddressBytes[] = [];
  // The last label is a top-level domain: a name that ends in a number is read as IPv4 by the parser.
  for (let index = 0; index + 4 < labels.length; index++) {
    const address = dotted(labels.slice(index, index + 4));
    if (address) found.push(address);
  }
  for (const label of labels.slice(0, -1)) {
    for (const match of label.matchAll(DASHED)) {
      const address = dotted(match.slice(1, 5));
      if (address) found.push(address);
    }
    const hex = HEX.exec(label);
    if (hex) {
      const value = Number.parseInt(hex[1] as string, 16);
      found.push(new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]));
    }
  }
  return found;
}

function format(address: AddressBytes): string {
  return [...address].join('.');
}

/**
 * Why a canonical host name leads inward, as the words after "<host> is", with the class of what it
 * leads to; null when nothing in the name says so.
 */
export function inwardName(host: string): AddressClass | null {
  const domain = LOOPBACK_DOMAINS.find((name) => host === name || host.endsWith(`.${name}`));
  if (domain) return { kind: 'loopback', description: `a name under ${domain}, whose public DNS answers 127.0.0.1` };
  for (const address of spelledAddresses(host.split('.'))) {
    const found = classifyAddress(address);
    if (found) {
      return { kind: found.kind, description: `a name that spells ${format(address)}, ${found.description}` };
    }
  }
  return null;
}
