import { DefinitionError, defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../../src/engine/execute/result-shaping.js';
import { MAX_TOOL_TIMEOUT_MS } from '../../../src/spec/define-tool.js';
import { createHarness } from '../../support/memory-store.js';

describe('limits', () => {
  it('EXE-6: a timeout above the hard ceiling is refused when the tool is defined', () => {
    const define = () =>
      defineTool({
        description: 'Wait',
        timeout: MAX_TOOL_TIMEOUT_MS + 1,
        execute: async () => ({ status: 'success' }),
      });
    expect(define).toThrow(DefinitionError);
    expect(define).toThrow(`at most ${MAX_TOOL_TIMEOUT_MS}`);
  });

  it('ATT-1: an attachment over the size limit becomes an error result and nothing is stored', async () => {
    const huge = 'A'.repeat(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 8);
    const h = createHarness({
      tools: {
        big: defineTool({
          description: 'Return a huge file',
          execute: async () => ({
            status: 'success' as const,
            result: 'made',
            attachments: [{ name: 'huge.bin', mimeType: 'application/octet-stream', data: huge }],
          }),
        }),
      },
      script: [{ toolCalls: [{ name: 'big' }] }, { text: 'ok' }],
    });
    await h.send('go');
    const [tool] = h.byRole('tool');
    expect(tool).toMatchObject({ tool_status: 'error' });
    expect(tool?.content).toContain(`larger than the ${MAX_ATTACHMENT_BYTES} byte limit`);
    expect(h.fileStore.paths()).toEqual([]);
  });

  it('ATT-1: an attachment whose data is not base64 becomes an error result', async () => {
    const h = createHarness({
      tools: {
        broken: defineTool({
          description: 'Return a broken file',
          execute: async () => ({
            status: 'success' as const,
            attachments: [{ name: 'x.png', mimeType: 'image/png', data: '***not base64***' }],
          }),
        }),
      },
      script: [{ toolCalls: [{ name: 'broken' }] }, { text: 'ok' }],
    });
    await h.send('go');
    expect(h.byRole('tool')[0]?.content).toContain('attachments could not be stored');
  });
});
