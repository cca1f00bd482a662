/**
 * EXE-4, ATT-1, ATT-2: what the runtime keeps of a ToolResult. Attachment references pass through
 * unstored, new attachments are stored byte for byte under /attachments/, `stack` is kept for
 * debugging but never shown as content, and the seed 003 envelope is stored and streamed.
 */
import { env } from 'cloudflare:workers';
import type { AttachmentRef, Message, ScriptedReply, ToolEnvelope } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled } from '../../support/api.js';
import { directive } from '../../support/directive-script.js';
import { openStream } from '../../support/socket.js';
import { r2Keys } from './support.js';

const AGENT = 'conf_lab';
const TOOL = 'conf_return_result';

async function upload(id: string, path: string, body: string, mimeType: string): Promise<AttachmentRef> {
  const bytes = new TextEncoder().encode(body);
  const response = await api(`/api/threads/${id}/files${path}`, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': mimeType, 'content-length': String(bytes.byteLength) },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as AttachmentRef;
}

/** Posts a scripted turn to an existing thread and returns its tool messages once it settled. */
async function turn(id: string, replies: ScriptedReply[]): Promise<Message[]> {
  const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive(replies) } });
  expect(posted.status).toBe(202);
  return (await settled(id)).filter((message) => message.role === 'tool');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const STACK = 'Error: quota exceeded\n    at chargeCard (billing.ts:41:7)\n    at conf_return_result (app.ts:9:3)';

describe('tool results', () => {
  it('ATT-2: an AttachmentRef to a file the client uploaded passes through unchanged and is not stored again', async () => {
    const id = await createThread({ agent: AGENT });
    const ref = await upload(id, '/docs/report.txt', 'quarterly numbers', 'text/plain');
    const before = await r2Keys(env.FILES, `threads/${id}/`);
    expect(before).toEqual([`threads/${id}/docs/report.txt`]);

    const [result] = await turn(id, [
      { toolCalls: [{ name: TOOL, arguments: { status: 'success', result: 'here it is', attachments: [ref] } }] },
      { text: 'done' },
    ]);
    expect(result).toMatchObject({ tool_status: 'success', name: TOOL });
    expect(result?.attachments).toEqual([ref]);
    expect(await r2Keys(env.FILES, `threads/${id}/`)).toEqual(before);
    const download = await api(`/api/threads/${id}/files${result?.attachments?.[0]?.path}`);
    expect(await download.text()).toBe('quarterly numbers');
  });

  it('ATT-1: a new attachment beside a reference is stored under /attachments/ byte for byte, with mime type, size and dimensions', async () => {
    const id = await createThread({ agent: AGENT });
    const ref = await upload(id, '/inbox/photo-notes.txt', 'notes', 'text/plain');
    // Not a decodable image: the runtime must store it as given, never re-encode or downsample it.
    const bytes = Uint8Array.from({ length: 3000 }, (_, index) => (index * 7 + 3) % 256);
    const [result] = await turn(id, [
      {
        toolCalls: [
          {
            name: TOOL,
            arguments: {
              status: 'success',
              result: 'two files',
              attachments: [
                ref,
                { name: 'big-photo.jpg', mimeType: 'image/jpeg', data: toBase64(bytes), width: 4000, height: 3000 },
              ],
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    expect(result).toMatchObject({ tool_status: 'success' });
    const [passed, stored] = result?.attachments ?? [];
    expect(passed).toEqual(ref);
    expect(stored).toMatchObject({
      type: 'file',
      name: expect.stringMatching(/big-photo\.jpg$/),
      mimeType: 'image/jpeg',
      size: bytes.byteLength,
      width: 4000,
      height: 3000,
    });
    expect(stored?.path).toMatch(/^\/attachments\/[^/]*big-photo\.jpg$/);
    expect((await r2Keys(env.FILES, `threads/${id}/`)).sort()).toEqual(
      [`threads/${id}${stored?.path}`, `threads/${id}/inbox/photo-notes.txt`].sort(),
    );
    const download = await api(`/api/threads/${id}/files${stored?.path}`);
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it('EXE-4: an error result is stored as the error envelope; its stack is in metadata.stack, never in the content', async () => {
    const id = await createThread({ agent: AGENT });
    const [result] = await turn(id, [
      { toolCalls: [{ name: TOOL, arguments: { status: 'error', error: 'quota exceeded', stack: STACK } }] },
      { text: 'noted' },
    ]);
    expect(result).toMatchObject({ tool_status: 'error', content: 'Error: quota exceeded' });
    expect(result?.content).not.toContain('chargeCard');
    expect(result?.metadata?.stack).toBe(STACK);
    expect(result?.envelope).toEqual({
      type: 'error',
      error_text: 'quota exceeded',
      metadata: { duration_ms: expect.any(Number) },
    });
    expect(result?.envelope?.metadata.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('EXE-4: a success result is stored as the output envelope; a stack it carries stays out of the content', async () => {
    const id = await createThread({ agent: AGENT });
    const [result] = await turn(id, [
      { toolCalls: [{ name: TOOL, arguments: { status: 'success', result: 'charged', stack: STACK } }] },
      { text: 'noted' },
    ]);
    expect(result).toMatchObject({ tool_status: 'success', content: 'charged' });
    expect(result?.metadata?.stack).toBe(STACK);
    expect(result?.envelope).toEqual({
      type: 'output',
      data: 'charged',
      metadata: { duration_ms: expect.any(Number) },
    });
  });

  it('EXE-4: the tool_result frame carries the stored envelope, live and on replay, without the stack', async () => {
    const id = await createThread({ agent: AGENT });
    const stream = await openStream(id);
    const tools = await turn(id, [
      {
        toolCalls: [
          { name: TOOL, arguments: { status: 'success', result: 'first' } },
          { name: TOOL, arguments: { status: 'error', error: 'second failed', stack: STACK } },
        ],
      },
      { text: 'done' },
    ]);
    const last = tools.at(-1);
    await stream.waitFor((frame) => frame.type === 'tool_result' && frame.tool_call_id === last?.tool_call_id);
    stream.close();
    const replay = await openStream(id, 0);
    await replay.waitFor((frame) => frame.type === 'tool_result' && frame.tool_call_id === last?.tool_call_id);
    replay.close();

    expect(tools).toHaveLength(2);
    for (const frames of [stream.frames, replay.frames]) {
      const results = frames.filter((frame) => frame.type === 'tool_result');
      expect(results).toHaveLength(2);
      for (const [index, message] of tools.entries()) {
        const frame = results[index];
        expect(frame).toMatchObject({
          type: 'tool_result',
          tool_call_id: message.tool_call_id,
          name: TOOL,
          status: message.tool_status,
        });
        const envelope = frame?.type === 'tool_result' ? frame.envelope : null;
        expect(envelope).toEqual(message.envelope as ToolEnvelope);
        expect(JSON.stringify(frame)).not.toContain('chargeCard');
      }
    }
  });
});
