/**
 * The limits an application sets in createRuntime (ATT-6, THR-8): the defaults, and a value no
 * thread could hold stopping the Worker from starting.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, Registry } from '../../../../src/engine/registry/index.js';
import { DefinitionError } from '../../../../src/spec/internal.js';

describe('thread limits', () => {
  it('ATT-6, THR-8, SIDE-1: 1 GiB of files, 100 waiting messages and sidecars kept 7 days unless the application says otherwise', () => {
    const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
    expect(new Registry({}).limits).toEqual({
      threadStorageBytes: 1024 ** 3,
      inboxMessages: 100,
      toolOutputRetentionMs: WEEK_MS,
    });
    expect(DEFAULT_LIMITS).toEqual(new Registry({}).limits);
    expect(new Registry({ limits: { inboxMessages: 3 } }).limits).toEqual({
      threadStorageBytes: 1024 ** 3,
      inboxMessages: 3,
      toolOutputRetentionMs: WEEK_MS,
    });
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
