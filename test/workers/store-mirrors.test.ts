/**
 * THR-3, EXE-8: the thread store answers repeated reads from memory, and what it answers is always
 * what SQLite holds: a value changed by its reader is not changed in the store, a transaction that
 * throws leaves neither, a large value is read back whole, and a second store over the same SQLite
 * (the object after an eviction) reads the same.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { NO_SECRETS } from '../../src/engine/secrets/index.js';
import { SqliteThreadStore } from '../../src/thread/storage/index.js';
import { ThreadMeta } from '../../src/thread/storage/thread-meta.js';
import { createThread } from '../support/api.js';

const info = { id: 't', agentId: 'general', userId: 'u', createdAt: 0, headless: true, parentId: null };

describe('the thread store in memory and in SQLite', () => {
  it('THR-3: reads agree with SQLite after writes, a thrown transaction, a large value, and a new store', async () => {
    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    await runInDurableObject(stub, async (_instance, state) => {
      const open = () => new SqliteThreadStore(state.storage, new ThreadMeta(state.storage), info, () => NO_SECRETS);
      const store = open();

      store.setValue('tool:list', { items: [1, 2] });
      const read = store.getValue('tool:list') as { items: number[] };
      read.items.push(3);
      expect(store.getValue('tool:list')).toEqual({ items: [1, 2] });

      expect(() =>
        store.transaction(state.storage, () => {
          store.setValue('tool:list', { items: [] });
          store.append({ role: 'user', content: 'lost' });
          store.markToolStarted('call_lost');
          throw new Error('refused');
        }),
      ).toThrow('refused');
      expect(store.getValue('tool:list')).toEqual({ items: [1, 2] });
      expect(store.messages().map((message) => message.content)).not.toContain('lost');
      expect(store.toolStarted('call_lost')).toBe(false);

      const large = 'x'.repeat(200_000);
      store.setValue('tool:large', large);
      expect(store.getValue('tool:large')).toBe(large);
      store.setValue('tool:large', undefined);
      expect(store.getValue('tool:large')).toBeUndefined();

      store.markToolStarted('call_1');
      store.addChild('child-1');
      const again = open();
      expect(again.getValue('tool:list')).toEqual({ items: [1, 2] });
      expect(again.toolStarted('call_1')).toBe(true);
      expect(again.children()).toContain('child-1');
      expect(again.messageCount()).toBe(store.messageCount());
    });
  });
});
