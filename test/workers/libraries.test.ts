/**
 * The libraries the runtime leans on, run in workerd itself (LOCK-3, ATT-1, THR-4): htmlparser2 and
 * entities read HTML for web_fetch, mime names file types, and AbortSignal.timeout / AbortSignal.any
 * carry the time limits of web_search, web_fetch and the provider's backoff. None may need a Node
 * built-in, so each is exercised here rather than trusted from the Node suite.
 */
import { describe, expect, it } from 'vitest';
import { mimeTypeFor } from '../../src/engine/files/mime.js';
import { sleep } from '../../src/providers/transport/index.js';
import { htmlToText } from '../../src/tools/web-fetch/html-to-text.js';

describe('libraries on workerd', () => {
  it('LOCK-3: htmlparser2 and entities convert a page, every character reference decoded', () => {
    const out = htmlToText(
      '<title>x</title><p>I &hearts; &Delta; &#x1F600;<script>"</p>"</script> <a href="/q?a=1&amp;b=2">l</a></p>',
      { format: 'markdown', baseUrl: 'https://site.example/' },
    );
    expect(out).toBe('I ♥ Δ 😀 [l](https://site.example/q?a=1&b=2)');
  });

  it('ATT-1: mime knows .docx and .heic; the overrides keep .ts as TypeScript', () => {
    expect(mimeTypeFor('a.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mimeTypeFor('a.HEIC')).toBe('image/heic');
    expect(mimeTypeFor('a.ts')).toBe('text/typescript');
    expect(mimeTypeFor('README')).toBe('application/octet-stream');
  });

  it('LOCK-3: AbortSignal.timeout aborts with a TimeoutError that AbortSignal.any passes on; a stop keeps its reason', async () => {
    const timeout = AbortSignal.timeout(20);
    const either = AbortSignal.any([timeout, new AbortController().signal]);
    await new Promise((resolve) => either.addEventListener('abort', resolve, { once: true }));
    expect(either.reason).toBeInstanceOf(DOMException);
    expect((either.reason as DOMException).name).toBe('TimeoutError');

    const stop = new AbortController();
    const stopped = AbortSignal.any([AbortSignal.timeout(60_000), stop.signal]);
    stop.abort(new Error('stopped'));
    expect(stopped.reason).toBeInstanceOf(Error);
    expect((stopped.reason as Error).message).toBe('stopped');
  });

  it("THR-4: the backoff sleep waits on workerd and a stop ends it with the caller's reason", async () => {
    await sleep(10.5);
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
  });
});
