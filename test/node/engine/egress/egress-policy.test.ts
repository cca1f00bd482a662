/**
 * The egress policy (containment): which URLs the runtime may contact on a model's behalf.
 * Every case of the hostile corpus's network section is refused with the reason it names; public
 * hosts pass; EGRESS_ALLOW_HOSTS admits a development host by its canonical address and nothing else.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalHost,
  checkEgress,
  type EgressPolicy,
  egressPolicy,
} from '../../../../src/engine/egress/egress-policy.js';
import { inNetwork, parseIPv4, parseIPv6, parseNetwork } from '../../../../src/engine/egress/ip-address.js';
import { classifyAddress } from '../../../../src/engine/egress/special-addresses.js';
import { ALLOW_HINT, expectRefusal } from '../../../support/egress-refusals.js';
import { inwardNames, loopbackSpellings, PUBLIC_LOOKING_NAMES, refusedUrls } from '../../../support/hostile-corpus.js';

const PORT = 8080;

function refusal(policy: EgressPolicy, url: string): string {
  const decision = checkEgress(policy, url);
  if (decision.allowed) throw new Error(`${url} was allowed`);
  return decision.message;
}

describe('egress policy: the hostile corpus', () => {
  it.each(refusedUrls(PORT, '/corpus'))('LOCK-5: $label ($url) is refused by default', (item) => {
    expectRefusal(refusal(egressPolicy(), item.url), item);
  });

  it('LOCK-5: the URL parser gives every corpus host the canonical form the refusal names', () => {
    for (const item of refusedUrls(PORT)) {
      if (item.host === null || item.reason.source.includes('empty label')) continue;
      expect(canonicalHost(new URL(item.url)), item.label).toBe(item.host);
    }
  });

  it('LOCK-5: the finding, message for message', () => {
    const policy = egressPolicy();
    expect(refusal(policy, 'http://127.0.0.1:8080/')).toBe(
      `http://127.0.0.1:8080/ is refused: 127.0.0.1 is a loopback address${ALLOW_HINT}`,
    );
    expect(refusal(policy, 'http://2130706433:8080/')).toBe(
      `http://127.0.0.1:8080/ is refused: 127.0.0.1 is a loopback address${ALLOW_HINT}`,
    );
    expect(refusal(policy, 'http://[::ffff:127.0.0.1]:8080/')).toBe(
      `http://[::ffff:7f00:1]:8080/ is refused: [::ffff:7f00:1] is an IPv4-mapped address of 127.0.0.1, a loopback address${ALLOW_HINT}`,
    );
    expect(refusal(policy, 'http://localhost:8080/')).toBe(
      `http://localhost:8080/ is refused: localhost is a loopback name${ALLOW_HINT}`,
    );
    expect(refusal(policy, 'http://0.0.0.0:8080/')).toBe(
      `http://0.0.0.0:8080/ is refused: 0.0.0.0 is an unspecified address ("this network", 0.0.0.0/8)${ALLOW_HINT}`,
    );
    expect(refusal(policy, 'http://169.254.169.254/latest/meta-data/')).toBe(
      'http://169.254.169.254/latest/meta-data/ is refused: 169.254.169.254 is a cloud metadata address',
    );
  });

  it('LOCK-5: schemes other than http(s), credentials and text that is no URL are refused first', () => {
    const policy = egressPolicy('example.com');
    expect(refusal(policy, 'ftp://example.com/file')).toBe('only http and https URLs can be fetched, not ftp:');
    expect(refusal(policy, 'javascript:alert(1)')).toBe('only http and https URLs can be fetched, not javascript:');
    expect(refusal(policy, 'data:text/plain,hi')).toBe('only http and https URLs can be fetched, not data:');
    expect(refusal(policy, 'ws://example.com/')).toBe('only http and https URLs can be fetched, not ws:');
    expect(refusal(policy, 'https://user:pass@example.com/')).toBe(
      'URLs with credentials (user:password@) are refused',
    );
    expect(refusal(policy, 'https://:pass@example.com/')).toBe('URLs with credentials (user:password@) are refused');
    expect(refusal(policy, 'not a url')).toBe('"not a url" is not a valid URL');
    expect(refusal(policy, 'http://[fe80::1%25eth0]/')).toBe('"http://[fe80::1%25eth0]/" is not a valid URL');
    const credentials = checkEgress(policy, 'https://user:secret@example.com/');
    expect(credentials).toMatchObject({ allowed: false, url: null });
  });

  it('LOCK-5: a relative target resolves against the base (a redirect Location)', () => {
    const decision = checkEgress(egressPolicy(), '/next', new URL('https://example.com/a/b'));
    expect(decision).toEqual({ allowed: true, url: new URL('https://example.com/next') });
    expect(refusal(egressPolicy(), 'http://localhost/x')).toContain('localhost is a loopback name');
  });
});

describe('egress policy: public hosts', () => {
  it.each([
    'https://example.com/a?b=c',
    'http://example.com./',
    'HTTPS://EXAMPLE.COM/',
    'http://☃.com/',
    'http://1.1.1.1:8080/',
    'http://16843009/',
    'http://172.32.0.1/',
    'http://172.15.255.255/',
    'http://100.128.0.1/',
    'http://100.63.255.255/',
    'http://169.253.255.255/',
    'http://192.169.0.1/',
    'http://223.255.255.255/',
    'http://[2606:4700:4700::1111]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::808:808]/',
    'http://[2002:808:808::1]/',
    'http://some.local.example.com/',
    'http://localhost.example.com/',
    'http://internal.example.com/',
  ])('LOCK-5: %s is allowed', (url) => {
    expect(checkEgress(egressPolicy(), url)).toMatchObject({ allowed: true });
  });
});

describe('egress policy: EGRESS_ALLOW_HOSTS', () => {
  it('LOCK-5: 127.0.0.1:<port> admits every spelling of that address on that port, and nothing else', () => {
    const policy = egressPolicy(`127.0.0.1:${PORT}`);
    for (const { label, url } of loopbackSpellings(PORT)) {
      expect(checkEgress(policy, url), label).toMatchObject({ allowed: true });
    }
    for (const { label, url } of loopbackSpellings(PORT + 1)) {
      expect(refusal(policy, url), label).toContain('127.0.0.1 is a loopback address');
    }
    // Other hosts to the URL parser, although some lead to the same socket.
    for (const item of refusedUrls(PORT)) {
      if (item.host === '127.0.0.1') continue;
      expectRefusal(refusal(policy, item.url), item);
    }
  });

  it('LOCK-5: a bare host admits every port; host:port matches the scheme default port', () => {
    const any = egressPolicy('localhost');
    expect(checkEgress(any, 'http://localhost:1/')).toMatchObject({ allowed: true });
    expect(checkEgress(any, 'https://LOCALHOST./')).toMatchObject({ allowed: true });
    expect(refusal(any, 'http://app.localhost/')).toContain('app.localhost is a loopback name');
    const http = egressPolicy(' LOCALHOST.:80 , ');
    expect([...http.allowHosts]).toEqual(['localhost:80']);
    expect(checkEgress(http, 'http://localhost/')).toMatchObject({ allowed: true });
    expect(checkEgress(http, 'http://localhost:80/')).toMatchObject({ allowed: true });
    expect(refusal(http, 'https://localhost/')).toContain('localhost is a loopback name');
    const secure = egressPolicy(['searx.internal:443']);
    expect(checkEgress(secure, 'https://searx.internal/search')).toMatchObject({ allowed: true });
    expect(refusal(secure, 'http://searx.internal/search')).toContain('searx.internal is a name under .internal');
  });

  it('LOCK-5: entries are canonicalised like URLs (IPv6 compression, IPv4 spellings, case)', () => {
    const policy = egressPolicy('[0:0:0:0:0:0:0:1]:3000,0x0a000001,Intranet');
    expect([...policy.allowHosts]).toEqual(['[::1]:3000', '10.0.0.1', 'intranet']);
    expect(checkEgress(policy, 'http://[::1]:3000/')).toMatchObject({ allowed: true });
    expect(checkEgress(policy, 'http://10.0.0.1:9/')).toMatchObject({ allowed: true });
    expect(checkEgress(policy, 'http://167772161/')).toMatchObject({ allowed: true });
    expect(checkEgress(policy, 'http://INTRANET./')).toMatchObject({ allowed: true });
    expect(refusal(policy, 'http://[::1]:3001/')).toContain('[::1] is the loopback address');
    expect(refusal(policy, 'http://[::ffff:10.0.0.1]/')).toContain('IPv4-mapped address of 10.0.0.1');
  });

  it('LOCK-5: cloud metadata stays refused when listed', () => {
    const policy = egressPolicy('169.254.169.254,metadata.google.internal,metadata,[fd00:ec2::254]');
    for (const item of refusedUrls(PORT).filter((candidate) => candidate.neverAllowed)) {
      expectRefusal(refusal(policy, item.url), item);
    }
  });

  it('LOCK-5: a malformed entry is a clear error', () => {
    for (const entry of [
      'http://x',
      'a b',
      'host:0',
      'host:70000',
      'user@host',
      'x/y',
      'host:',
      ':80',
      '[::1',
      'a:b:c',
    ]) {
      expect(() => egressPolicy(entry), entry).toThrow(`EGRESS_ALLOW_HOSTS: "${entry}" is not a host or host:port`);
    }
    expect(egressPolicy('').allowHosts.size).toBe(0);
    expect(egressPolicy(' , ,').allowHosts.size).toBe(0);
  });
});

describe('IP address text', () => {
  const bytes = (values: number[]) => new Uint8Array(values);

  it('LOCK-5: IPv4 is read in its canonical dotted-decimal form only', () => {
    expect(parseIPv4('127.0.0.1')).toEqual(bytes([127, 0, 0, 1]));
    expect(parseIPv4('255.255.255.255')).toEqual(bytes([255, 255, 255, 255]));
    for (const text of [
      '0177.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.0.0.1',
      '256.0.0.1',
      '1.2.3.4.5',
      '',
      '1..2.3',
      ' 1.2.3.4',
    ]) {
      expect(parseIPv4(text), text).toBeNull();
    }
  });

  it('LOCK-5: IPv6 is read compressed, expanded, with a dotted tail, in any case', () => {
    const loopback = bytes([...new Array(15).fill(0), 1]);
    expect(parseIPv6('::1')).toEqual(loopback);
    expect(parseIPv6('0:0:0:0:0:0:0:1')).toEqual(loopback);
    expect(parseIPv6('0000:0000::0001')).toEqual(loopback);
    expect(parseIPv6('::')).toEqual(new Uint8Array(16));
    expect(parseIPv6('::FFFF:127.0.0.1')).toEqual(bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]));
    expect(parseIPv6('fe80::')).toEqual(bytes([0xfe, 0x80, ...new Array(14).fill(0)]));
    expect(parseIPv6('1:2:3:4:5:6:7::')).toEqual(bytes([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0]));
    for (const text of [
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8::',
      '12345::',
      'fe80::1%eth0',
      '::1.2.3.4:5',
      '1.2.3.4::',
      ':1::',
      '::g',
    ]) {
      expect(parseIPv6(text), text).toBeNull();
    }
  });

  it('LOCK-5: networks match on their prefix bits, across byte boundaries', () => {
    const cgnat = parseNetwork('100.64.0.0/10');
    expect(inNetwork(parseIPv4('100.64.0.0') as Uint8Array, cgnat)).toBe(true);
    expect(inNetwork(parseIPv4('100.127.255.255') as Uint8Array, cgnat)).toBe(true);
    expect(inNetwork(parseIPv4('100.128.0.0') as Uint8Array, cgnat)).toBe(false);
    expect(inNetwork(parseIPv4('100.63.255.255') as Uint8Array, cgnat)).toBe(false);
    expect(inNetwork(parseIPv6('fdff::1') as Uint8Array, parseNetwork('fc00::/7'))).toBe(true);
    expect(inNetwork(parseIPv6('fe00::1') as Uint8Array, parseNetwork('fc00::/7'))).toBe(false);
    expect(inNetwork(parseIPv4('1.2.3.4') as Uint8Array, parseNetwork('::/0'))).toBe(false);
    expect(() => parseNetwork('10.0.0.0/33')).toThrow('not a network');
  });

  it('LOCK-5: range edges are classified exactly', () => {
    const kind = (text: string) =>
      classifyAddress((parseIPv4(text) ?? parseIPv6(text)) as Uint8Array)?.kind ?? 'public';
    expect(['9.255.255.255', '10.0.0.0', '10.255.255.255', '11.0.0.0'].map(kind)).toEqual([
      'public',
      'private',
      'private',
      'public',
    ]);
    expect(['169.254.169.253', '169.254.169.254', '169.254.169.255'].map(kind)).toEqual([
      'link-local',
      'metadata',
      'link-local',
    ]);
    expect(['239.255.255.255', '240.0.0.0', '255.255.255.254', '255.255.255.255'].map(kind)).toEqual([
      'multicast',
      'reserved',
      'reserved',
      'broadcast',
    ]);
    expect(['1fff:ffff::1', '2000::1', '3fff:0fff::1', '3fff:1000::1'].map(kind)).toEqual([
      'reserved',
      'public',
      'documentation',
      'public',
    ]);
    expect(['::ffff:0.0.0.1', '::2', '64:ff9b::a9fe:a9fe', '2002:c0a8:101::'].map(kind)).toEqual([
      'unspecified',
      'unspecified',
      'metadata',
      'private',
    ]);
  });
});

describe('egress policy: names that lead inward', () => {
  it.each(inwardNames(PORT, '/corpus'))('LOCK-5: $label ($url) is refused by default', (item) => {
    expectRefusal(refusal(egressPolicy(), item.url), item);
  });

  it.each([...PUBLIC_LOOKING_NAMES])('LOCK-5: %s spells no inward address and is allowed', (host) => {
    expect(checkEgress(egressPolicy(), `https://${host}/`).allowed).toBe(true);
  });

  it('LOCK-5: a development host may still be listed, a metadata address spelled in a name may not', () => {
    const policy = egressPolicy('127.0.0.1.nip.io,169-254-169-254.sslip.io');
    expect(checkEgress(policy, 'http://127.0.0.1.nip.io/').allowed).toBe(true);
    expect(checkEgress(policy, 'http://169-254-169-254.sslip.io/').allowed).toBe(false);
  });
});
