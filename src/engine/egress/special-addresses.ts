/**
 * Which IP addresses the runtime must not contact on a model's behalf (containment): the
 * IANA special-purpose registries for IPv4 and IPv6 plus the cloud metadata endpoints, as one table
 * read top to bottom (the first network that holds the address decides, so specific entries come
 * first). IPv6 forms that carry an IPv4 address (mapped, compatible, translated, NAT64, 6to4) are
 * judged by that IPv4 address. Everything not listed is a public unicast address.
 */
import { type AddressBytes, formatIPv4, inNetwork, type Network, parseNetwork } from './ip-address.js';

/** Why an address is refused; `metadata` can never be allowed, the others can for development. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

/** A refused address: its kind and the words that finish "<host> is ...". */
export interface AddressClass {
  kind: AddressKind;
  description: string;
}

interface RefusedNetwork extends AddressClass {
  network: Network;
}

/** An IPv6 network whose addresses carry an IPv4 address at `offset` (bytes). */
interface EmbeddingNetwork {
  network: Network;
  offset: number;
  form: string;
}

type Row = { cidr: string; kind: AddressKind; description: string } | { cidr: string; embedsAt: number; form: string };

const ROWS: readonly Row[] = [
  // IPv4. Cloud metadata first: each sits inside a wider range below.
  { cidr: '169.254.169.254/32', kind: 'metadata', description: 'a cloud metadata address' },
  { cidr: '169.254.170.2/32', kind: 'metadata', description: 'a cloud metadata address (ECS task metadata)' },
  { cidr: '100.100.100.200/32', kind: 'metadata', description: 'a cloud metadata address (Alibaba Cloud)' },
  { cidr: '192.0.0.192/32', kind: 'metadata', description: 'a cloud metadata address (Oracle Cloud)' },
  { cidr: '168.63.129.16/32', kind: 'metadata', description: 'a cloud platform address (Azure WireServer)' },
  { cidr: '0.0.0.0/8', kind: 'unspecified', description: 'an unspecified address ("this network", 0.0.0.0/8)' },
  { cidr: '10.0.0.0/8', kind: 'private', description: 'a private address (RFC 1918)' },
  { cidr: '100.64.0.0/10', kind: 'private', description: 'a carrier-grade NAT address (RFC 6598)' },
  { cidr: '127.0.0.0/8', kind: 'loopback', description: 'a loopback address' },
  { cidr: '169.254.0.0/16', kind: 'link-local', description: 'a link-local address' },
  { cidr: '172.16.0.0/12', kind: 'private', description: 'a private address (RFC 1918)' },
  { cidr: '192.0.0.0/24', kind: 'reserved', description: 'a reserved address (IETF protocol assignments)' },
  { cidr: '192.0.2.0/24', kind: 'documentation', description: 'a documentation address (TEST-NET-1)' },
  { cidr: '192.88.99.0/24', kind: 'reserved', description: 'a reserved address (6to4 relay anycast)' },
  { cidr: '192.168.0.0/16', kind: 'private', description: 'a private address (RFC 1918)' },
  { cidr: '198.18.0.0/15', kind: 'benchmarking', description: 'a benchmarking address (RFC 2544)' },
  { cidr: '198.51.100.0/24', kind: 'documentation', description: 'a documentation address (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', kind: 'documentation', description: 'a documentation address (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', kind: 'multicast', description: 'a multicast address' },
  { cidr: '255.255.255.255/32', kind: 'broadcast', description: 'the broadcast address' },
  { cidr: '240.0.0.0/4', kind: 'reserved', description: 'a reserved address (240.0.0.0/4)' },
  // IPv6.
  { cidr: 'fd00:ec2::254/128', kind: 'metadata', description: 'a cloud metadata address (AWS)' },
  { cidr: 'fd20:ce::254/128', kind: 'metadata', description: 'a cloud metadata address (Google Cloud)' },
  { cidr: '::/128', kind: 'unspecified', description: 'the unspecified address' },
  { cidr: '::1/128', kind: 'loopback', description: 'the loopback address' },
  { cidr: '::ffff:0:0/96', embedsAt: 12, form: 'an IPv4-mapped address' },
  { cidr: '::ffff:0:0:0/96', embedsAt: 12, form: 'an IPv4-translated address (RFC 6145)' },
  { cidr: '::/96', embedsAt: 12, form: 'an IPv4-compatible address' },
  { cidr: '64:ff9b::/96', embedsAt: 12, form: 'a NAT64 address' },
  { cidr: '64:ff9b:1::/48', kind: 'private', description: 'a local-use NAT64 address (RFC 8215)' },
  { cidr: '100::/64', kind: 'reserved', description: 'a discard-only address (RFC 6666)' },
  { cidr: '2001:db8::/32', kind: 'documentation', description: 'a documentation address (2001:db8::/32)' },
  { cidr: '2001:2::/48', kind: 'benchmarking', description: 'a benchmarking address (RFC 5180)' },
  // Teredo, ORCHID and the other IETF protocol assignments.
  { cidr: '2001::/23', kind: 'reserved', description: 'a reserved address (IETF protocol assignments, 2001::/23)' },
  { cidr: '2002::/16', embedsAt: 2, form: 'a 6to4 address' },
  { cidr: '3fff::/20', kind: 'documentation', description: 'a documentation address (3fff::/20)' },
  { cidr: '5f00::/16', kind: 'reserved', description: 'a reserved address (SRv6 SIDs, 5f00::/16)' },
  { cidr: 'fc00::/7', kind: 'private', description: 'a unique local address (RFC 4193)' },
  { cidr: 'fe80::/10', kind: 'link-local', description: 'a link-local address' },
  { cidr: 'fec0::/10', kind: 'private', description: 'a site-local address (deprecated, private)' },
  { cidr: 'ff00::/8', kind: 'multicast', description: 'a multicast address' },
];

const TABLE: readonly (RefusedNetwork | EmbeddingNetwork)[] = ROWS.map((row) =>
  'embedsAt' in row
    ? { network: parseNetwork(row.cidr), offset: row.embedsAt, form: row.form }
    : { network: parseNetwork(row.cidr), kind: row.kind, description: row.description },
);

/** Global unicast IPv6 (2000::/3): every other IPv6 address the table does not name is refused. */
const GLOBAL_UNICAST = parseNetwork('2000::/3');

/** Why `address` must not be contacted, or null for a public unicast address. */
export function classifyAddress(address: AddressBytes): AddressClass | null {
  for (const entry of TABLE) {
    if (!inNetwork(address, entry.network)) continue;
    if ('kind' in entry) return { kind: entry.kind, description: entry.description };
    const embedded = address.slice(entry.offset, entry.offset + 4);
    const inner = classifyAddress(embedded);
    if (!inner) return null;
    return { kind: inner.kind, description: `${entry.form} of ${formatIPv4(embedded)}, ${inner.description}` };
  }
  if (address.length === 16 && !inNetwork(address, GLOBAL_UNICAST)) {
    return { kind: 'reserved', description: 'a reserved address (outside global unicast 2000::/3)' };
  }
  return null;
}
