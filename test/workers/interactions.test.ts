import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { openStream } from '../support/socket.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: unknown }[];
}

const questions = [
  { question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] },
  { question: 'Why?', header: 'Reason' },
];

async function waiting(id: string): Promise<Waiting> {
  return until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (view) => view.status === 'waiting',
  );
}

const askAndAnswer = directive([
  { toolCalls: [{ name: 'question', arguments: { questions } }] },
  { text: 'thanks for answering' },
]);

describe('question tool and approvals', () => {
  it('LOCK-1: question pauses the thread until POST /answers, then the model gets the answers', async () => {
    const id = await createThread({ agent: 'general' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: askAndAnswer } });
    const view = await waiting(id);
    expect(view.waiting_for).toEqual([
      {
        tool_call_id: expect.any(String),
        name: 'question',
        kind: 'question',
        payload: {
          questions: [
            {
              question: 'Which colour?',
              header: '',
              options: [
                { label: 'red', description: '' },
                { label: 'blue', description: '' },
              ],
              multi_select: false,
            },
            { question: 'Why?', header: 'Reason', options: [], multi_select: false },
          ],
        },
        created_at: expect.any(Number),
      },
    ]);
    // The socket may deliver the frame a moment after the HTTP view already says waiting.
    expect(await stream.waitFor((frame) => frame.type === 'waiting')).toMatchObject({
      kind: 'question',
      name: 'question',
    });
    const callId = view.waiting_for[0]?.tool_call_id;
    const wrongCount = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: callId, answers: [['red']] },
    });
    expect(wrongCount.status).toBe(400);
    expect(await wrongCount.json()).toMatchObject({ error: { code: 'invalid_answer' } });
    const answered = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: callId, answers: [['blue'], ['calm']] },
    });
    expect(answered.status).toBe(200);
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      name: 'question',
      tool_status: 'success',
      content: JSON.stringify({ answers: [['blue'], ['calm']] }),
    });
    expect(log.at(-1)?.content).toBe('thanks for answering');
    const again = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: callId, answers: [['red'], ['x']] },
    });
    expect(again.status).toBe(409);
    stream.close();
  });

  it('LOCK-1: an answer for a call that waits for nothing is a 409', async () => {
    const id = await createThread({ agent: 'general' });
    const response = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: 'call_unknown', answers: [] },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: 'not_waiting' } });
  });

  it('LOCK-1: on a headless thread question fails at once with a fixed message and the turn goes on', async () => {
    const id = await createThread({ agent: 'general', headless: true, messages: [{ content: askAndAnswer }] });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'error',
      content:
        'Error: No human can answer questions on this thread (it is headless). Proceed with your best judgement.',
    });
    expect((await thread(id)).status).toBe('idle');
  });

  it('KIND-7: a waiting question survives eviction and resumes after the answer', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: askAndAnswer }] });
    const view = await waiting(id);
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    expect((await waiting(id)).waiting_for).toEqual(view.waiting_for);
    await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: view.waiting_for[0]?.tool_call_id, answers: [['red'], ['because']] },
    });
    expect((await settled(id)).at(-1)?.content).toBe('thanks for answering');
  });

  it('KIND-5: a rejected call never runs its body and the model is told the reason', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'understood' }]) }],
    });
    const view = await waiting(id);
    expect(view.waiting_for[0]).toMatchObject({ kind: 'approval', name: 'guarded_increment' });
    // KIND-7: the wait for approval outlives the object.
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    expect((await waiting(id)).waiting_for).toEqual(view.waiting_for);
    await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: view.waiting_for[0]?.tool_call_id, approved: false, reason: 'not today' },
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'error',
      content: 'Error: The user rejected the call to tool "guarded_increment": not today. It was not run.',
    });
    // The body never ran: a second, approved call is its first run.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'done' }]) },
    });
    const second = await waiting(id);
    await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: second.waiting_for[0]?.tool_call_id, approved: true },
    });
    const after = await settled(id);
    expect(after.filter((m) => m.role === 'tool').at(-1)).toMatchObject({ tool_status: 'success', content: 'runs: 1' });
  });

  it('PERM-2: on a headless thread a call needing approval is denied at once', async () => {
    const id = await createThread({
      agent: 'general',
      headless: true,
      messages: [{ content: directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'ok' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toContain(
      'this thread is headless (no human to ask), so it is denied',
    );
  });

  it('SUB-7, EXE-5: a message sent while waiting is queued; stopping ends the wait without running the call', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: askAndAnswer }] });
    const view = await waiting(id);
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'hello?' } });
    expect(await posted.json()).toMatchObject({ queued: true });
    const stopped = await api(`/api/threads/${id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    const log = await settled(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(log[2]?.content).toContain('stopped');
    expect(log[4]?.content).toBe('echo: hello?');
    const late = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: view.waiting_for[0]?.tool_call_id, answers: [['red'], ['x']] },
    });
    expect(late.status).toBe(409);
    expect(await messages(id)).toHaveLength(5);
  });
});
