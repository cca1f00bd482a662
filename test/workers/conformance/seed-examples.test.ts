/**
 * DEF-5: the five examples of seed 001 section 11, imported as they stand from ./seed-examples/, run
 * end to end on workerd. Each test drives one example through HTTP as a client would.
 */
import { env } from 'cloudflare:workers';
import type { AttachmentRef } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api } from '../../support/api.js';
import { r2Keys, runScript, servedAgent, servedTool } from './support.js';

const AGENT = 'conf_seed';
/** 11.5 declares `vectorStoreId` as a required tenv: every thread of the agent needs it. */
const VARIABLES = { vectorStoreId: 'vs_conformance_001' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** CRC-32 computed bit by bit: independent of the table-driven one in the 11.4 stand-in. */
function bitwiseCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  chunkTypes: string[];
  pixelBytes: number;
}

/** Parses a PNG strictly enough to tell a real one: signature, chunk CRCs, IHDR, inflatable IDAT. */
async function decodePng(bytes: Uint8Array): Promise<DecodedPng> {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunkTypes: string[] = [];
  const idat: Uint8Array[] = [];
  let header: Pick<DecodedPng, 'width' | 'height' | 'bitDepth' | 'colorType'> | null = null;
  let offset = 8;
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    expect(view.getUint32(offset + 8 + length), `CRC of ${type}`).toBe(
      bitwiseCrc32(bytes.subarray(offset + 4, offset + 8 + length)),
    );
    chunkTypes.push(type);
    if (type === 'IHDR') {
      const ihdr = new DataView(data.buffer, data.byteOffset, data.byteLength);
      header = {
        width: ihdr.getUint32(0),
        height: ihdr.getUint32(4),
        bitDepth: ihdr.getUint8(8),
        colorType: ihdr.getUint8(9),
      };
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  if (!header) throw new Error('no IHDR chunk');
  const inflated = new Response(new Blob(idat).stream().pipeThrough(new DecompressionStream('deflate')));
  const pixelBytes = (await inflated.arrayBuffer()).byteLength;
  return { ...header, chunkTypes, pixelBytes };
}

describe('seed 001 section 11 examples, as they stand', () => {
  it('DEF-5: 11.1 searches with the default limit 10 applied when the model gives none, and a given one otherwise', async () => {
    const tool = await servedTool(AGENT, 'conf_search_knowledge_base');
    expect(tool.description).toBe('Search the knowledge base for relevant information');
    expect(tool.parameters.properties?.query).toMatchObject({ type: 'string', description: 'Search query' });
    expect(tool.parameters.properties?.limit).toMatchObject({
      type: 'number',
      default: 10,
      description: 'Max results',
    });
    expect(tool.parameters.required).toEqual(['query']);

    const { tools, log } = await runScript(
      AGENT,
      [
        {
          toolCalls: [
            { name: 'conf_search_knowledge_base', arguments: { query: 'durable objects' } },
            { name: 'conf_search_knowledge_base', arguments: { query: 'r2', limit: 2 } },
          ],
        },
        { text: 'found' },
      ],
      VARIABLES,
    );
    const [defaulted, limited] = tools;
    expect(defaulted).toMatchObject({ tool_status: 'success', name: 'conf_search_knowledge_base' });
    expect(JSON.parse(defaulted?.content ?? '')).toEqual({
      query: 'durable objects',
      limit: 10,
      hits: [
        { id: 'kb-1', title: 'durable objects (1)' },
        { id: 'kb-2', title: 'durable objects (2)' },
        { id: 'kb-3', title: 'durable objects (3)' },
      ],
    });
    expect(JSON.parse(limited?.content ?? '')).toMatchObject({ query: 'r2', limit: 2, hits: [{}, {}] });
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'found' });
  });

  it('DEF-5: 11.2 takes no arguments and returns the current server time in ISO format', async () => {
    const tool = await servedTool(AGENT, 'conf_get_time');
    expect(tool.parameters.properties ?? {}).toEqual({});
    const before = Date.now();
    const { tools } = await runScript(AGENT, [{ toolCalls: [{ name: 'conf_get_time' }] }, { text: 'ok' }], VARIABLES);
    const after = Date.now();
    const [result] = tools;
    expect(result).toMatchObject({ tool_status: 'success', name: 'conf_get_time' });
    const time = result?.content ?? '';
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(time).toISOString()).toBe(time);
    expect(Date.parse(time)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(time)).toBeLessThanOrEqual(after);
    expect(result?.envelope).toMatchObject({ type: 'output', data: time });
  });

  it('DEF-5: 11.3 returns the JSON of a service that answers, and "HTTP 503: ..." for one that fails', async () => {
    const { tools, log } = await runScript(
      AGENT,
      [
        {
          toolCalls: [
            { name: 'conf_fetch_data', arguments: { endpoint: `${env.SERVICES_URL}/inventory?sku=42` } },
            { name: 'conf_fetch_data', arguments: { endpoint: `${env.SERVICES_URL}/status/503` } },
            { name: 'conf_fetch_data', arguments: { endpoint: 'not a url' } },
          ],
        },
        { text: 'handled' },
      ],
      VARIABLES,
    );
    const [ok, unavailable, thrown] = tools;
    expect(ok).toMatchObject({ tool_status: 'success', name: 'conf_fetch_data' });
    expect(JSON.parse(ok?.content ?? '')).toEqual({ ok: true, path: '/inventory', query: { sku: '42' } });

    expect(unavailable).toMatchObject({ tool_status: 'error', content: 'Error: HTTP 503: Service Unavailable' });
    expect(unavailable?.envelope).toMatchObject({ type: 'error', error_text: 'HTTP 503: Service Unavailable' });

    // The catch branch: the error message reaches the model, the stack is kept for debugging only.
    expect(thrown).toMatchObject({ tool_status: 'error' });
    const stack = thrown?.metadata?.stack;
    expect(typeof stack).toBe('string');
    expect(thrown?.content).toMatch(/^Error: .+/);
    expect(thrown?.content).not.toContain(String(stack));
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'handled' });
  });

  it('DEF-5: 11.4 stores a real PNG under /attachments/ with its mime type and the default or given size', async () => {
    const { id, tools } = await runScript(
      AGENT,
      [
        {
          toolCalls: [
            { name: 'conf_generate_image', arguments: { prompt: 'a red fox' } },
            { name: 'conf_generate_image', arguments: { prompt: 'a tiny fox', width: 64, height: 32 } },
          ],
        },
        { text: 'drawn' },
      ],
      VARIABLES,
    );
    const expected = [
      { prompt: 'a red fox', width: 512, height: 512 },
      { prompt: 'a tiny fox', width: 64, height: 32 },
    ];
    const stored = await r2Keys(env.FILES, `threads/${id}/`);
    for (const [index, want] of expected.entries()) {
      const message = tools[index];
      expect(message).toMatchObject({ tool_status: 'success', name: 'conf_generate_image' });
      expect(message?.content).toContain(`Generated image for: "${want.prompt}"`);
      expect(message?.attachments).toHaveLength(1);
      const ref = message?.attachments?.[0] as AttachmentRef;
      expect(ref).toMatchObject({
        type: 'file',
        mimeType: 'image/png',
        width: want.width,
        height: want.height,
        name: expect.stringMatching(/generated-\d+\.png$/),
      });
      expect(ref.path).toMatch(/^\/attachments\/[^/]+\.png$/);
      expect(stored).toContain(`threads/${id}${ref.path}`);

      const download = await api(`/api/threads/${id}/files${ref.path}`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('image/png');
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect(bytes.byteLength).toBe(ref.size);
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(await decodePng(bytes)).toEqual({
        width: want.width,
        height: want.height,
        bitDepth: 8,
        colorType: 2,
        chunkTypes: ['IHDR', 'IDAT', 'IEND'],
        pixelBytes: want.height * (1 + want.width * 3),
      });
    }
  });

  it('DEF-5: 11.5 reads state.tenvs.vectorStoreId given at thread creation', async () => {
    const agent = await servedAgent(AGENT);
    expect(agent.variables).toContainEqual({
      name: 'vectorStoreId',
      type: 'text',
      required: true,
      description: 'OpenAI Vector Store ID',
    });
    const { tools } = await runScript(
      AGENT,
      [{ toolCalls: [{ name: 'conf_search_files', arguments: { query: 'vacation policy' } }] }, { text: 'ok' }],
      { vectorStoreId: 'vs_from_thread_creation' },
    );
    const [result] = tools;
    expect(result).toMatchObject({ tool_status: 'success', name: 'conf_search_files' });
    expect(JSON.parse(result?.content ?? '')).toEqual({
      vectorStoreId: 'vs_from_thread_creation',
      query: 'vacation policy',
      matches: [{ file: 'handbook.pdf', score: 0.92 }],
    });
  });

  it('DEF-5: 11.5 makes thread creation without vectorStoreId fail with 400 missing_variables naming it', async () => {
    const response = await api('/api/threads', { method: 'POST', json: { agent: AGENT } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { code: string; message: string; details?: { missing?: string[] } };
    };
    expect(body.error.code).toBe('missing_variables');
    expect(body.error.message).toContain('vectorStoreId');
    expect(body.error.details?.missing).toEqual(['vectorStoreId']);
  });
});
