/**
 * The limits an application sets in createRuntime (ATT-6, THR-8): the defaults, and a value no
 * thread could hold stopping the Worker from starting.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, DEFAULT_MESSAGE_FILE_LIMITS, Registry } from '../../../../src/engine/registry/index.js';
import { DefinitionError } from '../../../../src/spec/internal.js';

describe('thread limits', () => {
  it('ATT-6, THR-8, SIDE-1: 1 GiB of files, 100 waiting messages and sidecars kept 7 days unless the application says otherwise', () => {
    const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
    expect(new Registry({}).limits).toEqual({
      threadStorageBytes: 1024 ** 3,
      inboxMessages: 100,
      toolOutputRetentionMs: WEEK_MS,
      fileHistoryBytes: 1024 ** 3,
      deltaFlushMs: 50,
      messageFiles: DEFAULT_MESSAGE_FILE_LIMITS,
    });
    expect(DEFAULT_LIMITS).toEqual(new Registry({}).limits);
    expect(new Registry({ limits: { inboxMessages: 3 } }).limits).toEqual({
      threadStorageBytes: 1024 ** 3,
      inboxMessages: 3,
      toolOutputRetentionMs: WEEK_MS,
      fileHistoryBytes: 1024 ** 3,
      deltaFlushMs: 50,
      messageFiles: DEFAULT_MESSAGE_FILE_LIMITS,
    });
  });

  it("FORK-7: the file history holds as much as the thread's files may take, unless the application says otherwise", () => {
    expect(new Registry({ limits: { threadStorageBytes: 4096 } }).limits.fileHistoryBytes).toBe(4096);
    expect(new Registry({ limits: { threadStorageBytes: 4096, fileHistoryBytes: 1 } }).limits.fileHistoryBytes).toBe(1);
    for (const fileHistoryBytes of [0, -1, 0.5]) {
      expect(() => new Registry({ limits: { fileHistoryBytes } })).toThrow(DefinitionError);
    }
  });

  it('THR-9: streamed text is sent at most every 50 ms unless the application says otherwise; 0 sends every delta', () => {
    expect(new Registry({ limits: { deltaFlushMs: 0 } }).limits.deltaFlushMs).toBe(0);
    expect(new Registry({ limits: { deltaFlushMs: 250 } }).limits.deltaFlushMs).toBe(250);
    for (const deltaFlushMs of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new Registry({ limits: { deltaFlushMs } })).toThrow(DefinitionError);
    }
    // Zero stays refused where it means nothing.
    expect(() => new Registry({ limits: { inboxMessages: 0 } })).toThrow(DefinitionError);
  });

  it('MSG-5: files on a message: 100 MiB each, 10 per message, images, PDF and text, 8000 px a side, each replaceable', () => {
    expect(DEFAULT_MESSAGE_FILE_LIMITS).toEqual({
      maxFileBytes: 100 * 1024 * 1024,
      maxFiles: 10,
      mimeTypes: [
        'image/png',
        'image/jpeg',
        'image/gif',
        'image/webp',
        'application/pdf',
        'text/plain',
        'text/markdown',
        'text/csv',
        'application/json',
      ],
      maxImageSide: 8000,
    });
    const limits = new Registry({ limits: { messageFiles: { maxFiles: 2, mimeTypes: ['image/png'] } } }).limits;
    expect(limits.messageFiles).toEqual({
      ...DEFAULT_MESSAGE_FILE_LIMITS,
      maxFiles: 2,
      mimeTypes: ['image/png'],
    });
    for (const messageFiles of [
      { maxFileBytes: 0 },
      { maxFiles: 1.5 },
      { maxImageSide: -1 },
      { mimeTypes: ['PNG'] },
      { mimeTypes: 'image/png' as unknown as string[] },
    ]) {
      expect(() => new Registry({ limits: { messageFiles } }), JSON.stringify(messageFiles)).toThrow(DefinitionError);
    }
  });

  it('ATT-6, THR-8: a limit that is not a positive whole number is a definition error', () => {
    for (const limits of [
      { threadStorageBytes: 0 },
      { threadStorageBytes: -1 },
      { threadStorageBytes: 1.5 },
      { inboxMessages: Number.NaN },
      { inboxMessages: Number.POSITIVE_INFINITY },
      { inboxMessages: '10' as unknown as number },
    ]) {
      expect(() => new Registry({ limits }), JSON.stringify(limits)).toThrow(DefinitionError);
    }
  });
});
