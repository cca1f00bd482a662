/**
 * The client library's files on a message (MSG-9), against the Worker's own handler: small files go
 * as base64 parts of the JSON body, large ones (or any, when asked) as multipart/form-data, and
 * either way they are listed on the stored message in the order given; a refusal is an ApiError.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient, JSON_FILE_BYTES } from '../../client/index.js';
import { ALICE } from '../support/api.js';
import { png } from '../support/message-files.js';

const worker = (exports as unknown as { default: Fetcher }).default;
const sent: string[] = [];
const client = createClient({
  baseUrl: 'https://agents.test',
  apiKey: ALICE,
  fetch: (input, init) => {
    const request = new Request(input, init);
    sent.push(request.headers.get('content-type')?.split(';')[0] ?? '');
    return worker.fetch(request);
  },
});

async function userMessage(id: string) {
  const page = await client.messages.list(id);
  return page.messages.find((message) => message.role === 'user');
}

describe('client: files on a message', () => {
  it('MSG-9: small files go as JSON parts, large ones as multipart, each listed on the message in order', async () => {
    const { id } = await client.threads.create({ agent: 'quota' });
    const image = png(6, 5);
    sent.length = 0;
    await client.messages.post(
      id,
      { content: 'small ones' },
      {
        files: [
          { data: new Blob([image], { type: 'image/png' }), name: 'tiny.png' },
          { data: new TextEncoder().encode('a,b\n1,2\n'), name: 'table.csv', type: 'text/csv' },
        ],
      },
    );
    expect(sent.at(-1)).toBe('application/json');
    const small = await userMessage(id);
    expect(small?.content).toBe('small ones');
    expect(small?.attachments?.map((file) => [file.name.slice(37), file.mimeType, file.width ?? null])).toEqual([
      ['tiny.png', 'image/png', 6],
      ['table.csv', 'text/csv', null],
    ]);

    const { id: other } = await client.threads.create({ agent: 'quota' });
    const large = new Uint8Array(JSON_FILE_BYTES + 1).fill(120);
    await client.messages.post(
      other,
      { content: 'a large one' },
      { files: [{ data: large, name: 'big.txt', type: 'text/plain' }] },
    );
    expect(sent.at(-1)).toBe('multipart/form-data');
    const big = await userMessage(other);
    expect(big?.attachments?.map((file) => [file.name.slice(37), file.size])).toEqual([['big.txt', large.length]]);
  });

  it('MSG-9: multipart when asked; a refused file is an ApiError and nothing is stored', async () => {
    const { id } = await client.threads.create({ agent: 'quota' });
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const refused = await client.messages
      .post(id, { content: 'x' }, { files: [{ data: html, name: 'shot.png', type: 'image/png' }], multipart: true })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'file_type_mismatch' });
    expect((await client.messages.list(id)).messages).toEqual([]);
  });
});
