import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

function tools(log: Message[]): Message[] {
  return log.filter((m) => m.role === 'tool');
}

describe('tool calls through a thread', () => {
  it('EXE-1: invalid arguments, an unknown tool and malformed JSON each become error tool messages and the loop continues', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'add', arguments: { a: 1, b: 'two' } },
                { name: 'no_such_tool', arguments: {} },
                { name: 'echo', arguments: '{"text": "unterminated' },
              ],
            },
            { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
            { text: 'corrected' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const [invalid, unknown, malformed, fixed] = tools(log);
    expect(invalid).toMatchObject({ tool_status: 'error', name: 'add' });
    expect(invalid?.content).toContain('Invalid arguments for tool "add": b:');
    expect(unknown?.content).toContain('Unknown tool "no_such_tool". Available tools: echo, add,');
    expect(malformed?.content).toContain('Arguments for tool "echo" are not valid JSON');
    expect(fixed).toMatchObject({ tool_status: 'success', content: '3' });
    expect(log[log.length - 1]).toMatchObject({ role: 'assistant', content: 'corrected' });
    expect((await thread(id)).status).toBe('idle');
  });

  it('EXE-2: calls of one step run in the order the model returned them, results persisted in that order', async () => {
    const labels = ['first', 'second', 'third', 'fourth'];
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            { toolCalls: labels.map((label) => ({ name: 'record_order', arguments: { label } })) },
            { text: 'done' },
          ]),
        },
      ],
    });
    const results = tools(await settled(id));
    expect(results.map((m) => m.content)).toEqual([
      'first',
      'first,second',
      'first,second,third',
      'first,second,third,fourth',
    ]);
    const assistant = (await messages(id)).find((m) => m.tool_calls);
    expect(results.map((m) => m.tool_call_id)).toEqual(assistant?.tool_calls?.map((call) => call.id));
  });

  it('EXE-3: a tool that throws becomes an error tool message with its stack kept out of the content', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'throws' }] }, { text: 'recovered' }]) }],
    });
    const log = await settled(id);
    const [result] = tools(log);
    expect(result).toMatchObject({ tool_status: 'error', content: 'Error: tool exploded' });
    expect(result?.envelope).toMatchObject({ type: 'error', error_text: 'tool exploded' });
    expect(String(result?.metadata?.stack)).toContain('tool exploded');
    expect(log[log.length - 1]?.content).toBe('recovered');
  });

  it('EXE-4: every tool message carries the result envelope', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }]) }],
    });
    const [result] = tools(await settled(id));
    expect(result?.envelope).toMatchObject({
      type: 'output',
      data: 'x',
      metadata: { duration_ms: expect.any(Number) },
    });
  });

  it('EXE-5: state.execution carries the step count, side and an abort signal', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'thread_info' }] }, { text: 'ok' }]) }],
    });
    const [result] = tools(await settled(id));
    expect(JSON.parse(result?.content ?? '{}')).toEqual({
      threadId: id,
      agentId: 'general',
      stepCount: 1,
      currentSide: 'a',
      hasSignal: true,
    });
  });

  it('EXE-5: POST /stop aborts the running tool through its signal and the thread goes idle', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'wait_for_abort' }] }, { text: 'never reached' }]) }],
    });
    await until(
      () => thread(id),
      (view) => view.status === 'running' && view.message_count === 2,
    );
    const stopped = await api(`/api/threads/${id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(((await stopped.json()) as { status: string }).status).toBe('idle');
    const log = await messages(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(log[2]).toMatchObject({ tool_status: 'error' });
    expect(log[2]?.content).toContain('stopped');
  });

  it('EXE-6: a tool that outlives its timeout is aborted with a clear error and the loop continues', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'never_returns' }] }, { text: 'moved on' }]) }],
    });
    const log = await settled(id);
    expect(tools(log)[0]?.content).toBe('Error: Tool "never_returns" timed out after 50 ms and was aborted.');
    expect(log[log.length - 1]?.content).toBe('moved on');
  });

  it('SUB-7: a message posted while a turn runs is queued and delivered after the running step', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'wait_for_abort' }] }]) }],
    });
    await until(
      () => thread(id),
      (view) => view.status === 'running' && view.message_count === 2,
    );
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'while busy' } });
    expect(await posted.json()).toMatchObject({ queued: true });
    await api(`/api/threads/${id}/stop`, { method: 'POST' });
    const log = await settled(id);
    expect(log.map((m) => [m.role, m.role === 'user' ? m.content : null])).toEqual([
      ['user', expect.stringContaining('wait_for_abort')],
      ['assistant', null],
      ['tool', null],
      ['user', 'while busy'],
      ['assistant', null],
    ]);
    expect(log[4]?.content).toBe('echo: while busy');
  });

  it('THR-4: a model failure sets the thread to error with a clear message, and the next message recovers', async () => {
    const id = await createThread({ agent: 'general' });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: '{"fail":"model is down"}' } });
    await settled(id);
    const failed = await thread(id);
    expect(failed).toMatchObject({ status: 'error', last_error: 'model is down' });
    expect(await stream.waitFor((frame) => frame.type === 'error')).toMatchObject({
      code: 'turn_failed',
      message: 'model is down',
    });
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'try again' } });
    await until(
      () => messages(id),
      (log) => log.at(-1)?.content === 'echo: try again',
    );
    const recovered = await until(
      () => thread(id),
      (view) => view.status === 'idle',
    );
    expect(recovered.last_error).toBeNull();
    stream.close();
  });
});
