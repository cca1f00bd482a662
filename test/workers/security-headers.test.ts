/**
 * The Worker's origin, hardened (THR-5, ATT-5): every answer carries nosniff, no framing and no
 * referrer, with a Content-Security-Policy for its kind; `/docs` runs only a pinned, integrity-checked
 * Scalar; and no thread file, whatever its name, declared type or bytes, can run script on this
 * origin. Through the Worker's fetch handler, as a browser or a client would ask.
 */
import { describe, expect, it } from 'vitest';
import { api, createThread } from '../support/api.js';
import { FILES_THAT_ARE_PAGES } from '../support/hostile-corpus.js';

const EVERY_ANSWER = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function expectHardened(response: Response, label: string): string {
  for (const [name, value] of Object.entries(EVERY_ANSWER)) expect(response.headers.get(name), label).toBe(value);
  const policy = response.headers.get('content-security-policy') ?? '';
  expect(policy, label).toContain("frame-ancestors 'none'");
  return policy;
}

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

describe('security headers', () => {
  it('THR-5: every answer of the Worker carries them: API, errors, the index, the document, OAuth pages', async () => {
    const id = await createThread({ agent: 'general' });
    const answers: [string, Response][] = [
      ['index as JSON', await api('/', { key: null, headers: { accept: 'application/json' } })],
      ['openapi.json', await api('/openapi.json', { key: null })],
      ['agents', await api('/api/agents')],
      ['no key', await api('/api/agents', { key: null })],
      ['wrong key', await api('/api/agents', { key: 'not-a-key' })],
      ['thread', await api(`/api/threads/${id}`)],
      ['unknown thread', await api('/api/threads/00000000-0000-4000-8000-000000000000')],
      ['no route', await api('/nowhere', { key: null })],
      [
        'bad JSON',
        await api('/api/threads', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }),
      ],
      ['folder listing', await api(`/api/threads/${id}/files/`)],
      ['OAuth callback', await api('/oauth/mcp/callback?code=x&state=y', { key: null })],
      ['MCP endpoint', await api('/mcp', { key: null })],
    ];
    for (const [label, response] of answers) {
      const policy = expectHardened(response, label);
      // Nothing but a page of its own runs anything: API answers allow no source at all.
      expect(policy, label).toContain("default-src 'none'");
      expect(policy, label).not.toContain('script-src');
    }
  });

  it('THR-5: the inspector page gets a policy its own script and stylesheet satisfy, and nothing more', async () => {
    const page = await api('/', { key: null, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const policy = expectHardened(page, 'inspector');
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    const html = await page.text();
    // The page carries no inline script or style the policy would refuse.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });

  it('THR-5: /docs loads one pinned Scalar script from this origin with its integrity, and its start by hash', async () => {
    const page = await api('/docs', { key: null });
    expect(page.status).toBe(200);
    const policy = expectHardened(page, '/docs');
    const html = await page.text();
    const sources = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    const external = sources.filter(([, attributes]) => /\bsrc=/.test(attributes ?? ''));
    const inline = sources.filter(([, attributes]) => !/\bsrc=/.test(attributes ?? ''));
    expect(external).toHaveLength(1);
    const attributes = external[0]?.[1] ?? '';
    const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1] ?? '';
    // The Worker's own asset: nothing is fetched from another origin, so the page works offline.
    expect(src).toMatch(/^\/vendor\/scalar-api-reference-\d+\.\d+\.\d+\.js$/);
    expect(attributes).toMatch(/\bintegrity="sha384-[A-Za-z0-9+/]{64}"/);
    expect(attributes).toContain('crossorigin="anonymous"');
    const scriptSources = /script-src ([^;]+)/.exec(policy)?.[1]?.split(' ') ?? [];
    const hashes = await Promise.all(inline.map(([, , body]) => sha256Base64(body ?? '')));
    // The policy names that one file by its full URL, not the whole origin: the inspector's script
    // and anything else this origin serves stay out.
    const file = new URL(src, 'https://runtime.test').href;
    expect(scriptSources.sort()).toEqual([file, ...hashes.map((hash) => `'sha256-${hash}'`)].sort());
    expect(scriptSources).not.toContain("'self'");
    expect(policy).toContain("connect-src 'self'");
  });
});

describe('files that are really pages', () => {
  it('ATT-5: no uploaded file can run script here: sandboxed, unsniffed, and an attachment unless its type runs nothing', async () => {
    const id = await createThread({ agent: 'general' });
    for (const [index, file] of FILES_THAT_ARE_PAGES.entries()) {
      const path = `pages/${index}/${encodeURIComponent(file.name)}`;
      const bytes = new TextEncoder().encode(file.body);
      const headers: Record<string, string> = { 'content-length': String(bytes.byteLength) };
      if (file.type) headers['content-type'] = file.type;
      const put = await api(`/api/threads/${id}/files/${path}`, { method: 'PUT', body: bytes, headers });
      expect(put.status, file.label).toBe(201);

      const get = await api(`/api/threads/${id}/files/${path}`);
      expect(get.status, file.label).toBe(200);
      expect(get.headers.get('content-type'), file.label).toBe(file.served);
      const policy = expectHardened(get, file.label);
      expect(
        policy.split(';').map((part) => part.trim()),
        file.label,
      ).toEqual(expect.arrayContaining(['sandbox', "default-src 'none'"]));
      const disposition = get.headers.get('content-disposition');
      if (file.inline) expect(disposition, file.label).toBeNull();
      else {
        expect(disposition, file.label).toMatch(
          /^attachment; filename="[A-Za-z0-9._ -]+"; filename\*=UTF-8''[^"\s;]+$/,
        );
        expect(decodeURIComponent(disposition?.split("UTF-8''")[1] ?? ''), file.label).toBe(file.name);
      }
      // The bytes themselves are untouched: only how a browser may use them changed.
      expect(await get.text(), file.label).toBe(file.body);
    }
  });
});
