/**
 * Host names as rules and policies compare them (PERM-1): the form the WHATWG URL parser gives a
 * URL's host, which is what every request is checked on. The parser lower-cases names, maps them
 * through IDNA (Unicode to punycode: `bücher.example` is `xn--bcher-kva.example`; NFC, full-width
 * letters and dots to ASCII, zero-width characters dropped) and reads every IPv4 spelling as dotted
 * decimal. A rule or a declared host written in Unicode is brought to the same form, so it matches
 * the host a request really names.
 */

/** A bare host name: no port, path, credentials, IPv6 brackets or wildcard. */
const PLAIN_NAME = /^[^:/?#@[\]\\%\s*]+$/;
const WILDCARD = /[*?]/;
const ASCII = /^[\x20-\x7e]*$/;

function withoutTrailingDot(host: string): string {
  return host.replace(/\.$/, '');
}

/**
 * A name as the URL parser writes it (`BÜCHER.example.` → `xn--bcher-kva.example`); anything the
 * parser does not take as a host name is only lower-cased.
 */
export function asciiHostName(host: string): string {
  const lower = withoutTrailingDot(host.toLowerCase());
  if (!PLAIN_NAME.test(lower)) return lower;
  try {
    return withoutTrailingDot(new URL(`http://${lower}/`).hostname);
  } catch {
    return lower;
  }
}

/** One label without a wildcard, through the parser; `.x` keeps a lone number from reading as IPv4. */
function asciiLabel(label: string): string {
  if (ASCII.test(label)) return label;
  const name = asciiHostName(`${label}.x`);
  return name.endsWith('.x') ? name.slice(0, -2) : label;
}

/**
 * A rule's or a capability's host pattern in the form hosts are compared in. A pattern without
 * wildcards is a host name (above); in one with wildcards each label is converted on its own. A
 * label that mixes a wildcard with characters outside ASCII (`bü*`) has no punycode form to compare:
 * when `broad`, for a rule that refuses or asks, it stands for any internationalised label (`xn--*`),
 * so the refusal covers at least what was meant; otherwise, for what grants, it is null: it matches
 * nothing.
 */
export function canonicalHostPattern(pattern: string, broad: boolean): string | null {
  if (!WILDCARD.test(pattern)) return asciiHostName(pattern);
  const labels = withoutTrailingDot(pattern.toLowerCase()).split('.');
  const converted: string[] = [];
  for (const label of labels) {
    if (!WILDCARD.test(label)) converted.push(asciiLabel(label));
    else if (ASCII.test(label)) converted.push(label);
    else if (broad) converted.push('xn--*');
    else return null;
  }
  return converted.join('.');
}
