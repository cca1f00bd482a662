/**
 * The static assets wrangler serves without the Worker (inspector/public/_headers) carry the same
 * headers as every answer of the Worker, with the inspector page's policy: two copies of one rule
 * that must not drift (THR-5).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INSPECTOR_POLICY } from '../../../src/http/contract/security-headers.js';

const HEADERS_FILE = fileURLToPath(new URL('../../../inspector/public/_headers', import.meta.url));

/** The `_headers` rules: each path pattern with its headers, lower-cased names. */
function rules(text: string): Map<string, Map<string, string>> {
  const result = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = new Map();
      result.set(line.trim(), current);
      continue;
    }
    const colon = line.indexOf(':');
    current?.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return result;
}

describe('static asset headers', () => {
  it('THR-5: every asset gets nosniff, no framing, no referrer and the inspector policy', () => {
    const all = rules(readFileSync(HEADERS_FILE, 'utf8')).get('/*');
    expect(all?.get('x-content-type-options')).toBe('nosniff');
    expect(all?.get('x-frame-options')).toBe('DENY');
    expect(all?.get('referrer-policy')).toBe('no-referrer');
    expect(all?.get('content-security-policy')).toBe(INSPECTOR_POLICY);
  });
});
