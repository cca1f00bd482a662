/**
 * The egress policy (containment): whether the runtime may contact a URL on a model's
 * behalf. Only http and https, no credentials in the URL, and never a host inside the machine or its
 * networks: loopback, private, link-local, cloud metadata, unspecified, multicast, broadcast and
 * reserved addresses (special-addresses.ts) and the names that lead there (`localhost`, `*.internal`,
 * single-label names, ...). Hosts are judged in the canonical form of the WHATWG URL parser, which
 * already reads every IPv4 spelling (`2130706433`, `0x7f.1`, `127.1`) as dotted decimal.
 *
 * A deployment may allow named hosts for development (`EGRESS_ALLOW_HOSTS`): entries `host` (any
 * port) or `host:port`, matched against the canonical host, so an entry `127.0.0.1:8080` also admits
 * `http://2130706433:8080/` (the same address) but not `localhost:8080` or `[::ffff:127.0.0.1]:8080`
 * (other hosts to the parser). Cloud metadata hosts are refused even when listed. Names are not
 * resolved here: names that spell an inward address (`127.0.0.1.nip.io`) and development names known
 * to answer 127.0.0.1 are refused (inward-names.ts); any other public name whose DNS points inward is
 * outside this policy, and must be stopped by the network the runtime runs on.
 */
import { asciiHostName } from './host-names.js';
import { inwardName } from './inward-names.js';
import { parseIPv4, parseIPv6 } from './ip-address.js';
import { type AddressClass, classifyAddress } from './special-addresses.js';

/** The name of the Worker variable that lists development hosts. */
export const ALLOW_HOSTS_VARIABLE = 'EGRESS_ALLOW_HOSTS';

const ALLOW_HINT = ` (set ${ALLOW_HOSTS_VARIABLE} to allow a development host)`;

export interface EgressPolicy {
  /** Canonical `host` and `host:port` entries the default refuses but this deployment allows. */
  readonly allowHosts: ReadonlySet<string>;
}

/** A refusal carries the URL when it parsed (null for text that is not a URL). */
export type EgressDecision = { allowed: true; url: URL } | { allowed: false; url: URL | null; message: string };

/** Names for the metadata services of the large clouds; refused even when listed. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

/** Suffixes that only private networks resolve (RFC 6762 `.local`, RFC 8375 `home.arpa`, ...). */
const PRIVATE_SUFFIXES = [
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
];

/** What a host is when it must not be contacted: the words after "<host> is", and whether listing may allow it. */
interface HostRefusal {
  description: string;
  allowable: boolean;
}

/** The hostname as the policy compares it: lowercased, one trailing dot removed. */
export function canonicalHost(url: URL): string {
  // The parser has made the host canonical already; only case and one trailing dot remain.
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

/**
 * A host name as policies and rules compare it: lower case, without the trailing dot of a fully
 * qualified name, and in the URL parser's form (punycode for Unicode names, host-names.ts).
 */
export function canonicalHostName(host: string): string {
  return asciiHostName(host);
}

/** The port a URL reaches, its scheme's default when it names none. */
function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function fromAddress(found: AddressClass | null): HostRefusal | null {
  return found && { description: found.description, allowable: found.kind !== 'metadata' };
}

/** Why a canonical host must not be contacted, or null when it may be. */
export function refusalOf(host: string): HostRefusal | null {
  if (host.startsWith('[')) {
    const address = parseIPv6(host.slice(1, -1));
    return address ? fromAddress(classifyAddress(address)) : { description: 'not an IPv6 address', allowable: false };
  }
  const labels = host.split('.');
  // The URL parser reads a host whose last label is a number as IPv4; anything else is suspect.
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(labels.at(-1) ?? '')) {
    const address = parseIPv4(host);
    return address
      ? fromAddress(classifyAddress(address))
      : { description: 'not a canonical address', allowable: false };
  }
  if (labels.some((label) => label === '')) return { description: 'a name with an empty label', allowable: false };
  if (METADATA_NAMES.has(host)) return { description: 'a cloud metadata name', allowable: false };
  if (host === 'localhost' || host.endsWith('.localhost')) return { description: 'a loopback name', allowable: true };
  const inward = inwardName(host);
  if (inward) return { description: inward.description, allowable: inward.kind !== 'metadata' };
  if (labels.length === 1) {
    return { description: 'a single-label name, which only a local network resolves', allowable: true };
  }
  const suffix = PRIVATE_SUFFIXES.find((candidate) => host.endsWith(`.${candidate}`));
  if (suffix) return { description: `a name under .${suffix}, which only a private network resolves`, allowable: true };
  return null;
}

/** A policy allowing the listed development hosts (`host` or `host:port`, comma-separated or a list). */
export function egressPolicy(allowHosts: string | readonly string[] = []): EgressPolicy {
  const entries = typeof allowHosts === 'string' ? allowHosts.split(',') : allowHosts;
  const canonical = new Set<string>();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    canonical.add(canonicalEntry(entry));
  }
  return { allowHosts: canonical };
}

/** `Host:8080`, `[0::1]`, `2130706433:80` → their canonical forms; throws on anything else. */
function canonicalEntry(entry: string): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/?#@[\]\s]+)(?::(\d{1,5}))?$/.exec(entry);
  const invalid = () => new Error(`${ALLOW_HOSTS_VARIABLE}: "${entry}" is not a host or host:port`);
  if (!match) throw invalid();
  let host: string;
  try {
    host = canonicalHost(new URL(`http://${match[1]}/`));
  } catch {
    throw invalid();
  }
  const port = match[2];
  if (port === undefined) return host;
  const number = Number(port);
  if (number < 1 || number > 65_535) throw invalid();
  return `${host}:${number}`;
}

/**
 * Whether the runtime may contact `target` (resolved against `base`, for a redirect's Location).
 * The refusal message is worded for the model: what was refused and why.
 */
export function checkEgress(policy: EgressPolicy, target: string | URL, base?: URL): EgressDecision {
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return { allowed: false, url: null, message: `"${String(target)}" is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      allowed: false,
      url,
      message: `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}:`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return { allowed: false, url: null, message: 'URLs with credentials (user:password@) are refused' };
  }
  const host = canonicalHost(url);
  const refusal = refusalOf(host);
  if (!refusal) return { allowed: true, url };
  const listed = policy.allowHosts.has(host) || policy.allowHosts.has(`${host}:${effectivePort(url)}`);
  if (listed && refusal.allowable) return { allowed: true, url };
  const hint = refusal.allowable ? ALLOW_HINT : '';
  return { allowed: false, url, message: `${url.href} is refused: ${host} is ${refusal.description}${hint}` };
}
