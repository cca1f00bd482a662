import { describe, expect, it } from 'vitest';
import { directive } from '../support/directive-script.js';
import { createThread, settled } from '../support/api.js';

describe('smoke', () => {
  it('THR-1: a thread runs a tool round trip', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'done' }]) }],
    });
    const log = await settled(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log[2]?.content).toBe('hi');
  });
});
