import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { openStream } from '../support/socket.js';

interface View {
  status: string;
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: unknown }[];
}

async function view(id: string): Promise<View> {
  return (await (await api(`/api/threads/${id}`)).json()) as View;
}

async function waitingFor(id: string, status = 'waiting'): Promise<View> {
  return until(
    () => view(id),
    (v) => v.status === status,
  );
}

const postOutput = (id: string, toolCallId: string | undefined, output: unknown) =>
  api(`/api/threads/${id}/tool-results`, { method: 'POST', json: { tool_call_id: toolCallId, output } });

describe('tool kinds', () => {
  it('KIND-2: progress events stream as tool_progress frames before the result and are kept with it', async () => {
    const id = await createThread({ agent: 'general' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'count_progress' }] }, { text: 'ok' }]) },
    });
    const log = await settled(id);
    await stream.waitFor((frame) => frame.type === 'tool_result');
    const types = stream.frames.map((frame) => frame.type);
    const progress = stream.frames.filter((frame) => frame.type === 'tool_progress');
    expect(progress.map((frame) => (frame.type === 'tool_progress' ? frame.event : null))).toEqual([
      { step: 1 },
      { step: 2 },
      { step: 3 },
    ]);
    expect(types.lastIndexOf('tool_progress')).toBeLessThan(types.indexOf('tool_result'));
    expect(log.find((m) => m.role === 'tool')?.envelope).toMatchObject({
      type: 'output',
      data: 'counted',
      metadata: { progress: [{ step: 1 }, { step: 2 }, { step: 3 }] },
    });
    stream.close();
  });

  it('KIND-2: a progress event that fails the event schema ends the call with an error naming the field', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'bad_progress' }] }, { text: 'ok' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toContain('yielded an invalid progress event: step:');
  });

  it('EXE-2: adjacent concurrent calls run together; a non-concurrent call after them waits its turn; results stay in call order', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'meet', arguments: { label: 'a' } },
                { name: 'meet', arguments: { label: 'b' } },
                { name: 'meet', arguments: { label: 'c' } },
                { name: 'after_meeting' },
              ],
            },
            { text: 'ok' },
          ]),
        },
      ],
    });
    const results = (await settled(id)).filter((m) => m.role === 'tool');
    // Each `meet` returns only once all three have started: run one by one, they would time out.
    // The non-concurrent call ran only after all three had met.
    expect(results.map((m) => m.content)).toEqual(['met a', 'met b', 'met c', 'arrived: 3']);
  });

  it('KIND-3: a client tool waits until POST /tool-results delivers output that matches its schema', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'client_lookup', arguments: { key: 'k1' } }] },
            { text: 'thanks' },
          ]),
        },
      ],
    });
    const waiting = await waitingFor(id);
    expect(waiting.waiting_for[0]).toMatchObject({
      kind: 'client_tool',
      name: 'client_lookup',
      payload: { arguments: { key: 'k1' } },
    });
    // KIND-7: the wait outlives the object.
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    const callId = (await waitingFor(id)).waiting_for[0]?.tool_call_id;
    const bad = await postOutput(id, callId, { found: 'yes' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('found:');
    expect((await postOutput(id, callId, { found: true })).status).toBe(200);
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({ tool_status: 'success', content: '{"found":true}' });
    expect((await postOutput(id, callId, { found: true })).status).toBe(409);
  });

  it('KIND-4: a HITL tool answers small refunds itself and pauses (awaiting_hitl) for large ones, surviving eviction', async () => {
    const small = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'refund', arguments: { amount: 20 } }] }, { text: 'ok' }]) },
      ],
    });
    expect((await settled(small)).find((m) => m.role === 'tool')?.content).toBe('{"approved":true,"by":"policy"}');

    const large = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'refund', arguments: { amount: 500 } }] }, { text: 'ok' }]) },
      ],
    });
    const waiting = await waitingFor(large, 'awaiting_hitl');
    expect(waiting.waiting_for[0]).toMatchObject({ kind: 'hitl', name: 'refund' });
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(large)));
    const callId = (await waitingFor(large, 'awaiting_hitl')).waiting_for[0]?.tool_call_id;
    expect((await postOutput(large, callId, { approved: false })).status).toBe(200);
    const log = await settled(large);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'success',
      content: '{"approved":false,"by":"human"}',
    });
  });

  it('KIND-4: an output that fails the schema after onResponseReceived reaches the model as an error', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'refund', arguments: { amount: 900 } }] }, { text: 'ok' }]) },
      ],
    });
    const callId = (await waitingFor(id, 'awaiting_hitl')).waiting_for[0]?.tool_call_id;
    await postOutput(id, callId, { approved: 'maybe' });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({ tool_status: 'error' });
    expect(log.find((m) => m.role === 'tool')?.content).toContain('does not match its output schema: approved:');
  });
});
