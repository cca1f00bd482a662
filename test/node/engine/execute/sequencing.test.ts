/**
 * EXE-2: the calls of one model step run one after another, in the order the model returned them,
 * and their results are persisted and shown to the model in that order.
 */
import { defineTool, type ThreadState } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, deferred, settle } from '../../../support/memory-store.js';

async function push(state: ThreadState, key: string, entry: string): Promise<void> {
  const list = (await state.getValue<string[]>(key)) ?? [];
  await state.setValue(key, [...list, entry]);
}

describe('EXE-2: sequential execution in model order', () => {
  it('EXE-2: three calls of one step run sequentially in model order even when the first one is slow', async () => {
    const firstRunning = deferred();
    const releaseFirst = deferred();
    const record = defineTool({
      description: 'Records a label into the order list.',
      args: z.object({ label: z.string(), slow: z.boolean().default(false) }),
      execute: async (state, { label, slow }) => {
        await push(state, 'order', `start ${label}`);
        if (slow) {
          firstRunning.resolve();
          await releaseFirst.promise;
        }
        await push(state, 'order', `end ${label}`);
        return { status: 'success', result: `recorded ${label}` };
      },
    });
    const h = createHarness({
      tools: { record },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'record', arguments: { label: 'one', slow: true } },
            { id: 'c2', name: 'record', arguments: { label: 'two' } },
            { id: 'c3', name: 'record', arguments: { label: 'three' } },
          ],
        },
        { text: 'all recorded' },
      ],
    });
    h.user('record three things');
    const turn = h.run();

    await firstRunning.promise;
    await settle();
    // While the first call is blocked, nothing after it has started or been persisted.
    expect(await h.state().getValue('order')).toEqual(['start one']);
    expect(h.byRole('tool')).toEqual([]);
    expect(h.frames.filter((frame) => frame.type === 'tool_started')).toHaveLength(1);

    releaseFirst.resolve();
    expect(await turn).toEqual({ kind: 'done', reason: 'response' });

    expect(await h.state().getValue('order')).toEqual([
      'start one',
      'end one',
      'start two',
      'end two',
      'start three',
      'end three',
    ]);
    const results = h.byRole('tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    expect(results.map((m) => m.content)).toEqual(['recorded one', 'recorded two', 'recorded three']);
    expect(results.map((m) => m.seq)).toEqual([...results.map((m) => m.seq)].sort((a, b) => a - b));

    // Frames interleave per call: started, result, message, then the next call.
    const toolFrames = h.frames
      .filter((frame) => frame.type === 'tool_started' || frame.type === 'tool_result')
      .map((frame) => `${frame.type}:${'tool_call_id' in frame ? frame.tool_call_id : ''}`);
    expect(toolFrames).toEqual([
      'tool_started:c1',
      'tool_result:c1',
      'tool_started:c2',
      'tool_result:c2',
      'tool_started:c3',
      'tool_result:c3',
    ]);

    // The model's next request shows the results right after the call, in call order.
    const next = h.requests[1]?.messages ?? [];
    expect(next.slice(-4).map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role))).toEqual([
      'assistant',
      'tool:c1',
      'tool:c2',
      'tool:c3',
    ]);
  });

  it('EXE-2: a failing call in the middle does not reorder or skip the calls after it', async () => {
    const record = defineTool({
      description: 'Records a label, failing on "bad".',
      args: z.object({ label: z.string() }),
      execute: async (state, { label }) => {
        await push(state, 'order', label);
        if (label === 'bad') throw new Error('bad label');
        return { status: 'success', result: label };
      },
    });
    const h = createHarness({
      tools: { record },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'record', arguments: { label: 'first' } },
            { id: 'c2', name: 'record', arguments: { label: 'bad' } },
            { id: 'c3', name: 'record', arguments: { label: 'last' } },
          ],
        },
        { text: 'done' },
      ],
    });
    await h.send('go');
    expect(await h.state().getValue('order')).toEqual(['first', 'bad', 'last']);
    expect(h.byRole('tool').map((m) => [m.tool_call_id, m.tool_status])).toEqual([
      ['c1', 'success'],
      ['c2', 'error'],
      ['c3', 'success'],
    ]);
  });
});
