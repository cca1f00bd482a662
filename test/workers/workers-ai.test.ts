/**
 * The Workers AI provider in a thread (THR-4), in workerd and through the HTTP API: the agent's model
 * is `provider: 'workers-ai'` on a stub of the AI binding (workers-ai-app.ts) that answers with the
 * binding's own stream bytes and records every run's inputs.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import type { RecordedCall, StubUsage } from '../../harness/workers-ai-stub.mjs';
import { api, createThread, messages, settled, thread } from '../support/api.js';
import { openStream } from '../support/socket.js';
import { STUB_MODEL_ID, stub, workersAiDirective } from './workers-ai-app.js';

const TOOL_STEP_USAGE: StubUsage = { prompt_tokens: 210, completion_tokens: 18, total_tokens: 228 };
const TEXT_STEP_USAGE: StubUsage = { prompt_tokens: 256, completion_tokens: 21, total_tokens: 277 };

/** The stub's runs for one test's directive. */
function runsOf(nonce: string): RecordedCall[] {
  return stub.calls.filter((call) => JSON.stringify(call.inputs.messages).includes(nonce));
}

describe('Workers AI provider in a thread', () => {
  it('THR-4: the model calls a tool, sees its result in the next run, and streams its stored answer', async () => {
    const nonce = crypto.randomUUID();
    const answer = 'It is sunny in Paris, so no umbrella today.';
    const directive = workersAiDirective(
      [
        {
          toolCalls: [{ name: 'wai_weather', arguments: { city: 'Paris' }, id: 'chatcmpl-tool-5f3a9c' }],
          usage: TOOL_STEP_USAGE,
        },
        { text: answer, chunkSize: 5, usage: TEXT_STEP_USAGE },
      ],
      nonce,
    );
    const id = await createThread({ agent: 'workers_ai' });
    const stream = await openStream(id);

    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive } });
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    const log = await settled(id);

    const runs = runsOf(nonce);
    expect(runs).toHaveLength(2);
    expect(runs.map((run) => run.model)).toEqual([STUB_MODEL_ID, STUB_MODEL_ID]);
    const [first, second] = runs as [RecordedCall, RecordedCall];
    expect(first.inputs.stream).toBe(true);
    expect(first.inputs.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({
          name: 'wai_weather',
          parameters: expect.objectContaining({ properties: { city: expect.objectContaining({ type: 'string' }) } }),
        }),
      },
    ]);
    const sent = second.inputs.messages as Record<string, unknown>[];
    expect(sent[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You answer through Workers AI.'),
    });
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: directive },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'chatcmpl-tool-5f3a9c',
            type: 'function',
            function: { name: 'wai_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'chatcmpl-tool-5f3a9c', content: 'Sunny in Paris' },
    ]);

    const [, call, result, final] = log as [Message, Message, Message, Message];
    expect(call).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'chatcmpl-tool-5f3a9c' }] });
    expect(call.metadata?.usage).toEqual({ promptTokens: 210, completionTokens: 18, totalTokens: 228 });
    expect(result).toMatchObject({ role: 'tool', tool_call_id: 'chatcmpl-tool-5f3a9c', content: 'Sunny in Paris' });
    expect(final).toMatchObject({ role: 'assistant', content: answer });
    expect(final.metadata?.usage).toEqual({ promptTokens: 256, completionTokens: 21, totalTokens: 277 });
    expect(final.metadata?.model).toBe(STUB_MODEL_ID);

    const deltas = stream.frames.flatMap((frame) =>
      frame.type === 'message_delta' && frame.message_id === final.id ? [frame.delta] : [],
    );
    // The binding streams five characters a piece; the thread sends the first at once and joins the
    // rest into one frame before the message (THR-9: the test Worker's interval outlasts the test).
    expect(deltas).toEqual([answer.slice(0, 5), answer.slice(5)]);
    stream.close();
  });

  it('THR-4: a Chat Completions model answers in the same thread shape', async () => {
    const nonce = crypto.randomUUID();
    const directive = workersAiDirective([{ text: 'Hello from GLM.', format: 'chat-completions' }], nonce);
    const id = await createThread({ agent: 'workers_ai', messages: [{ content: directive }] });

    const log = await settled(id);

    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello from GLM.' });
    expect(runsOf(nonce)).toHaveLength(1);
  });

  it("THR-4: a failure Workers AI reports ends the turn with Workers AI's explanation, not retried", async () => {
    const nonce = crypto.randomUUID();
    const directive = workersAiDirective(
      [{ throws: '5007: No such model @cf/meta/llama-3.3-70b-instruct-fp8-fast' }],
      nonce,
    );
    const id = await createThread({ agent: 'workers_ai', messages: [{ content: directive }] });

    await settled(id);

    const view = await thread(id);
    expect(view.status).toBe('error');
    expect(view.last_error).toContain(
      `Workers AI binding failed for ${STUB_MODEL_ID}: 5007: No such model @cf/meta/llama-3.3-70b-instruct-fp8-fast`,
    );
    expect(runsOf(nonce)).toHaveLength(1);
    expect((await messages(id)).filter((message) => message.role === 'assistant')).toEqual([]);
  });
});
