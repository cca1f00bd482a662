/**
 * ATT-1 / ATT-2: files tools return. New attachments (base64 data) are stored under /attachments/
 * with their mime type and dimensions, linked to the tool message; references to files already in
 * the thread pass through untouched.
 */
import { type AttachmentRef, defineTool, type ToolAttachment } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../support/memory-store.js';

// A 1x1 transparent PNG.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PNG_BYTES = Uint8Array.from(atob(PNG_BASE64), (char) => char.charCodeAt(0));

function returning(attachments: Array<ToolAttachment | AttachmentRef>, result = 'here you go') {
  return defineTool({
    description: 'Returns attachments.',
    execute: async () => ({ status: 'success', result, attachments }),
  });
}

describe('ATT-1: attachments with data are stored under /attachments/', () => {
  it('ATT-1: a base64 attachment is stored with its mime type, size and dimensions and the tool message carries its AttachmentRef', async () => {
    const h = createHarness({
      tools: {
        chart: returning([{ name: 'chart.png', mimeType: 'image/png', data: PNG_BASE64, width: 1, height: 1 }]),
      },
      script: [{ toolCalls: [{ id: 'c1', name: 'chart' }] }, { text: 'Here is the chart.' }],
    });
    expect(await h.send('draw')).toEqual({ kind: 'done', reason: 'response' });

    const [message] = h.byRole('tool');
    expect(message?.tool_status).toBe('success');
    expect(message?.attachments).toHaveLength(1);
    const ref = message?.attachments?.[0] as AttachmentRef;
    expect(ref).toMatchObject({
      type: 'file',
      name: expect.stringMatching(/chart\.png$/),
      mimeType: 'image/png',
      size: PNG_BYTES.byteLength,
      width: 1,
      height: 1,
    });
    expect(typeof ref.id).toBe('string');
    expect(ref.path).toMatch(/^\/attachments\/[^/]+chart\.png$/);

    // Readable through the filesystem, byte for byte (never downsampled), with its metadata.
    expect(await h.files.read(ref.path)).toEqual(PNG_BYTES);
    expect(await h.fileStore.head(ref.path)).toMatchObject({ mimeType: 'image/png', size: PNG_BYTES.byteLength });
    expect(await h.state().statFile(ref.path)).toMatchObject({ width: 1, height: 1 });
    expect((await h.files.readdir('/attachments')).map((entry) => entry.path)).toEqual([ref.path]);

    // The model is told where the file is; the envelope keeps the tool's own text.
    expect(message?.content).toContain('here you go');
    expect(message?.content).toContain(ref.path);
    expect(message?.envelope).toMatchObject({ type: 'output', data: 'here you go' });
  });

  it('ATT-1: two attachments with the same name are stored as two files', async () => {
    const data = btoa('hello');
    const h = createHarness({
      tools: {
        twice: returning([
          { name: 'a.txt', mimeType: 'text/plain', data },
          { name: 'a.txt', mimeType: 'text/plain', data: btoa('other') },
        ]),
      },
      script: [{ toolCalls: [{ name: 'twice' }] }, { text: 'ok' }],
    });
    await h.send('go');
    const refs = h.byRole('tool')[0]?.attachments ?? [];
    expect(refs).toHaveLength(2);
    expect(new Set(refs.map((ref) => ref.path)).size).toBe(2);
    expect(new TextDecoder().decode((await h.files.read(refs[1]?.path ?? '')) ?? new Uint8Array())).toBe('other');
  });

  it('ATT-1 / ATT-3: an attachment name with path tricks is confined to /attachments/', async () => {
    const h = createHarness({
      tools: {
        sneaky: returning([
          { name: '../../etc/passwd', mimeType: 'text/plain', data: btoa('x') },
          { name: '..\\..\\boot.ini', mimeType: 'text/plain', data: btoa('y') },
        ]),
      },
      script: [{ toolCalls: [{ name: 'sneaky' }] }, { text: 'ok' }],
    });
    await h.send('go');
    const paths = h.fileStore.paths();
    expect(paths).toHaveLength(2);
    for (const path of paths) expect(path).toMatch(/^\/attachments\/[^/]+$/);
    expect(h.byRole('tool')[0]?.attachments?.map((ref) => ref.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/passwd$/), expect.stringMatching(/boot\.ini$/)]),
    );
  });

  it('ATT-1: attachments on an error result are still stored and linked', async () => {
    const failing = defineTool({
      description: 'Fails with a log file.',
      execute: async () => ({
        status: 'error',
        error: 'build failed',
        attachments: [{ name: 'build.log', mimeType: 'text/plain', data: btoa('line 1') }],
      }),
    });
    const h = createHarness({ tools: { failing }, script: [{ toolCalls: [{ name: 'failing' }] }, { text: 'ok' }] });
    await h.send('go');
    const [message] = h.byRole('tool');
    expect(message?.tool_status).toBe('error');
    expect(message?.attachments?.[0]?.path).toMatch(/^\/attachments\/.*build\.log$/);
    expect(h.fileStore.paths()).toHaveLength(1);
  });
});

describe('ATT-2: AttachmentRef results pass through', () => {
  it('ATT-2: an AttachmentRef result passes through unchanged without a new file', async () => {
    let written: AttachmentRef | undefined;
    const share = defineTool({
      description: 'Writes a report and returns a reference to it.',
      execute: async (state) => {
        written = await state.writeFile('/reports/q1.md', '# Q1', { mimeType: 'text/markdown' });
        return { status: 'success', result: 'report written', attachments: [written] };
      },
    });
    const h = createHarness({ tools: { share }, script: [{ toolCalls: [{ name: 'share' }] }, { text: 'ok' }] });
    await h.send('report');

    expect(written).toMatchObject({ type: 'file', path: '/reports/q1.md', mimeType: 'text/markdown', size: 4 });
    expect(h.byRole('tool')[0]?.attachments).toEqual([written]);
    expect(h.fileStore.paths()).toEqual(['/reports/q1.md']);
  });

  it('ATT-2: a reference to an existing file is not copied, even mixed with a new attachment', async () => {
    const attachments: Array<ToolAttachment | AttachmentRef> = [];
    const h = createHarness({
      tools: { mixed: returning(attachments) },
      script: [{ toolCalls: [{ name: 'mixed' }] }, { text: 'ok' }],
    });
    const existing = await h.files.write('/data/in.csv', 'a,b\n1,2');
    attachments.push(existing, { name: 'out.txt', mimeType: 'text/plain', data: btoa('done') });
    await h.send('go');
    const refs = h.byRole('tool')[0]?.attachments ?? [];
    expect(refs[0]).toEqual(existing);
    expect(refs[1]?.path).toMatch(/^\/attachments\/.*out\.txt$/);
    expect(h.fileStore.paths()).toEqual([refs[1]?.path, '/data/in.csv'].sort());
  });
});
