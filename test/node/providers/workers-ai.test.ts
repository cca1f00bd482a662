/**
 * What only the Workers AI provider does (THR-4), against a stub binding that answers as
 * `env.AI.run` does: streamed answers as the binding's server-sent event bytes (native and Chat
 * Completions shapes), whole answers as its JSON output, failures thrown as
 * `InferenceUpstreamError`s with Workers AI's internal codes. Every call's inputs are recorded as the
 * binding would serialise them. What every provider does is in conformance.test.ts. Backoff waits go
 * through an injected sleep, so no test depends on timing.
 */
import { describe, expect, it } from 'vitest';
import {
  type AnswerReply,
  createWorkersAIStub,
  type StubReply,
  type WorkersAIStub,
  wholeAnswer,
} from '../../../harness/workers-ai-stub.mjs';
import { type ModelRequest, ProviderError } from '../../../src/engine/ports/provider.js';
import { resolveProvider } from '../../../src/providers/index.js';
import {
  type WorkersAIBinding,
  WorkersAIProvider,
  type WorkersAIProviderOptions,
  workersAIKind,
} from '../../../src/providers/workers-ai/index.js';
import { defineModel, type ModelDefinition } from '../../../src/spec/index.js';
import { failure, PROMPT_GUARD_MS, recordingSleep, within } from '../../support/provider-kit.js';

const MODEL = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: MODEL,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello' },
    ],
    tools: [],
    ...overrides,
  };
}

function stubWith(...replies: StubReply[]): WorkersAIStub {
  return createWorkersAIStub({ replies });
}

function provider(binding: WorkersAIBinding, options: Partial<WorkersAIProviderOptions> = {}): WorkersAIProvider {
  return new WorkersAIProvider({ binding, sleep: async () => {}, ...options });
}

/** A binding whose streamed answer is `pieces`, one read each: for byte boundaries the stub never makes. */
function piecesBinding(pieces: Uint8Array[]): WorkersAIBinding {
  return {
    run: async () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = pieces.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
  };
}

const weather = { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}', id: 'chatcmpl-tool-weather1' };
const time = { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}', id: 'chatcmpl-tool-time2' };

describe('WorkersAIProvider: streaming', () => {
  it('THR-4: streams Chat Completions chunks as deltas and reads the model that answered', async () => {
    const text = 'Streamed by a Chat Completions model.';
    const stub = stubWith({ text, format: 'chat-completions', chunkSize: 5 });
    const deltas: string[] = [];

    const response = await provider(stub).complete(request({ model: '@cf/zai-org/glm-4.7-flash' }), {
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(deltas.length).toBe(Math.ceil(text.length / 5));
    expect(deltas.join('')).toBe(text);
    expect(response).toMatchObject({ text, finishReason: 'stop', model: '@cf/zai-org/glm-4.7-flash' });
  });

  it('THR-4: text and two tool calls in one Chat Completions step', async () => {
    const stub = stubWith({ text: 'Let me look.', toolCalls: [weather, time], format: 'chat-completions' });
    const deltas: string[] = [];

    const response = await provider(stub).complete(request(), { onTextDelta: (delta) => deltas.push(delta) });

    expect(deltas.join('')).toBe('Let me look.');
    expect(response.text).toBe('Let me look.');
    expect(response.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      [weather.id, 'get_weather', weather.arguments],
      [time.id, 'get_time', time.arguments],
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('THR-4: keeps the real usage over the zeros Chat Completions chunks report first, cached tokens included', async () => {
    const usage = {
      prompt_tokens: 175,
      completion_tokens: 17,
      total_tokens: 192,
      prompt_tokens_details: { cached_tokens: 64 },
    };
    const stub = stubWith({ toolCalls: [weather], format: 'chat-completions', usage });

    const response = await provider(stub).complete(request());

    expect(response.usage).toEqual({ promptTokens: 175, completionTokens: 17, totalTokens: 192, cachedTokens: 64 });
  });

  it('THR-4: usage is null when the binding reports none', async () => {
    const stub = stubWith({ text: 'No totals.', omitUsage: true });

    expect((await provider(stub).complete(request())).usage).toBeNull();
  });

  it('THR-4: a stream cut off before [DONE] keeps what arrived but names no finish reason', async () => {
    const stub = stubWith({ text: 'Cut short', omitUsage: true, omitDone: true });

    const response = await provider(stub).complete(request());

    expect(response.text).toBe('Cut short');
    expect(response.finishReason).toBeNull();
  });

  it('THR-4: empty and closing tool_calls events add no call', async () => {
    const events = [
      'data: {"response":"Nothing to call.","p":"abdefgh"}',
      'data: {"tool_calls":[],"p":"abdefgh"}',
      'data: {"tool_calls":[{"id":null,"type":null,"function":{"name":null,"arguments":null}}]}',
      'data: [DONE]',
    ];
    const body = new TextEncoder().encode(`${events.join('\n\n')}\n\n`);

    const response = await provider(piecesBinding([body])).complete(request());

    expect(response).toMatchObject({ text: 'Nothing to call.', toolCalls: [], finishReason: 'stop' });
  });

  it('THR-4: reads a whole answer from a model that ignores `stream`: flat tool calls get ids', async () => {
    const whole = wholeAnswer({ text: '', toolCalls: [weather, { name: 'get_time', arguments: {} }] });
    const calls: Record<string, unknown>[] = [];
    const binding: WorkersAIBinding = {
      run: async (_model, inputs) => {
        calls.push(inputs);
        return whole;
      },
    };

    const response = await provider(binding).complete(request());

    expect(calls[0]?.stream).toBe(true);
    expect(response.toolCalls.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ['get_weather', weather.arguments],
      ['get_time', '{}'],
    ]);
    for (const call of response.toolCalls) expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(response.toolCalls.map((call) => call.id)).size).toBe(2);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('THR-4: reads events framed by single newlines', async () => {
    const lines = ['data: {"response":"one "}', 'data: {"response":"two"}', 'data: [DONE]'].join('\n');
    const deltas: string[] = [];

    const response = await provider(piecesBinding([new TextEncoder().encode(`${lines}\n\n`)])).complete(request(), {
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(response.text).toBe('one two');
    expect(deltas).toEqual(['one ', 'two']);
  });
});

describe('WorkersAIProvider: the inputs of a run', () => {
  it('THR-4: maps the conversation, tools and choices as the binding expects', async () => {
    const stub = stubWith({ text: 'ok' });
    const tools: ModelRequest['tools'] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const controller = new AbortController();

    await provider(stub).complete(
      request({
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Weather and time in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_w', content: 'Sunny, 21 °C' },
          { role: 'tool', tool_call_id: 'call_t', content: [{ type: 'text', text: '14:05' }] },
          { role: 'assistant', content: 'Sunny and 14:05.' },
          { role: 'user', content: 'Thanks' },
        ],
        tools,
        toolChoice: 'auto',
        parallelToolCalls: false,
        signal: controller.signal,
      }),
    );

    expect(stub.calls).toHaveLength(1);
    expect(stub.calls[0]?.model).toBe(MODEL);
    expect(stub.calls[0]?.signal).toBe(true);
    expect(stub.calls[0]?.inputs).toEqual({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_w', content: 'Sunny, 21 °C' },
        { role: 'tool', tool_call_id: 'call_t', content: '14:05' },
        { role: 'assistant', content: 'Sunny and 14:05.' },
        { role: 'user', content: 'Thanks' },
      ],
      stream: true,
      tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
  });

  it('THR-4: sends only messages and stream when nothing else is set', async () => {
    const stub = stubWith({ text: 'ok' });

    await provider(stub).complete(request());

    expect(Object.keys(stub.calls[0]?.inputs ?? {}).sort()).toEqual(['messages', 'stream']);
  });

  it('THR-4: maps every setting the binding takes', async () => {
    const stub = stubWith({ text: 'ok' });

    await provider(stub).complete(
      request({
        settings: { maxOutputTokens: 512, temperature: 0.2, topP: 0.9, stop: ['END'], reasoningEffort: 'low' },
      }),
    );

    expect(stub.calls[0]?.inputs).toMatchObject({
      stream: true,
      max_tokens: 512,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      reasoning_effort: 'low',
    });
  });

  it('THR-4: a response format runs unstreamed in JSON mode with the bare schema, its name as title', async () => {
    const answer = { name: 'India', capital: 'New Delhi' };
    const stub = stubWith({ json: answer, usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 } });
    const schema = { type: 'object', properties: { name: { type: 'string' }, capital: { type: 'string' } } };
    const deltas: string[] = [];

    const response = await provider(stub).complete(
      request({ settings: { responseFormat: { name: 'country', schema } } }),
      { onTextDelta: (delta) => deltas.push(delta) },
    );

    const inputs = stub.calls[0]?.inputs ?? {};
    expect('stream' in inputs).toBe(false);
    expect(inputs.response_format).toEqual({ type: 'json_schema', json_schema: { ...schema, title: 'country' } });
    expect(JSON.parse(response.text)).toEqual(answer);
    expect(deltas).toEqual([response.text]);
    expect(response.usage).toEqual({ promptTokens: 30, completionTokens: 12, totalTokens: 42 });
    expect(response.finishReason).toBe('stop');
  });

  it('EXE-9: user images go as image_url data URLs; images in a tool message follow its run of results', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const stub = stubWith({ text: 'A cat.' });

    await provider(stub).complete(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: png } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
          },
          {
            role: 'tool',
            tool_call_id: 'c1',
            content: [
              { type: 'text', text: 'took a screenshot' },
              { type: 'image_url', image_url: { url: png } },
            ],
          },
        ],
      }),
    );

    expect(stub.calls[0]?.inputs.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: png } },
        ],
      },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'took a screenshot' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: png } }] },
    ]);
  });
});

describe('WorkersAIProvider: failures and retries', () => {
  it('THR-4: retries a timeout (3007) and an upstream 5xx without a code', async () => {
    const stub = stubWith(
      { throws: '3007: Request timeout' },
      { throws: '503 Service Unavailable' },
      { text: 'recovered' },
    );

    expect((await provider(stub).complete(request())).text).toBe('recovered');
    expect(stub.calls).toHaveLength(3);
  });

  it.each([
    ['5007: No such model @cf/meta/nope or task', 400],
    ['3036: You have used up your daily free allocation of 10,000 neurons.', 429],
    ['5006: Error: oneOf at "/" not met, 0 matches', undefined],
  ])('THR-4: "%s" fails at once, status %s', async (thrown, status) => {
    const stub = stubWith({ throws: thrown }, { text: 'never' });
    const { delays, sleep } = recordingSleep();

    const error = await failure(provider(stub, { sleep }).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(`Workers AI binding failed for ${MODEL}: ${thrown}`);
    expect((error as ProviderError).status).toBe(status);
    expect((error as ProviderError).retryable).toBe(false);
    expect(stub.calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('THR-4: an answer that is not a model output fails clearly', async () => {
    const binding: WorkersAIBinding = { run: async () => ({ images: [] }) };

    const error = await failure(provider(binding).complete(request()));

    expect((error as ProviderError).message).toBe(
      'Workers AI binding answered with JSON that is not a model output: {"images":[]}',
    );
  });
});

describe('WorkersAIProvider: abort', () => {
  it('THR-4: aborting while the binding has not answered rejects with the signal reason', async () => {
    const stub = stubWith({ hang: true });
    const controller = new AbortController();
    const reason = new Error('thread stopped');

    const pending = provider(stub).complete(request({ signal: controller.signal }));
    setTimeout(() => controller.abort(reason), 5);

    expect(await within(failure(pending), PROMPT_GUARD_MS)).toBe(reason);
  });

  it('THR-4: a binding that ignores the signal still cannot delay an abort', async () => {
    const controller = new AbortController();
    const deaf: WorkersAIBinding = {
      run: () => {
        setTimeout(() => controller.abort(), 0);
        return new Promise(() => {});
      },
    };

    const error = await within(
      failure(provider(deaf).complete(request({ signal: controller.signal }))),
      PROMPT_GUARD_MS,
    );

    expect((error as DOMException).name).toBe('AbortError');
  });
});

describe('the workers-ai provider kind', () => {
  const model = (overrides: Partial<ModelDefinition> = {}) =>
    defineModel({ name: 'llama', provider: 'workers-ai', model: MODEL, ...overrides });
  const lookup = (): ModelDefinition => {
    throw new Error('no fallbacks here');
  };

  it('THR-4: accepts only a binding with a run function', () => {
    expect(workersAIKind.defaultBinding).toBe('AI');
    expect(workersAIKind.accepts(createWorkersAIStub())).toBe(true);
    expect(workersAIKind.accepts({ run: 'no' })).toBe(false);
    expect(workersAIKind.accepts(undefined)).toBe(false);
    expect(workersAIKind.accepts('AI')).toBe(false);
  });

  it('THR-4: a model reaches the binding named AI by default, or the one it names', async () => {
    const byDefault = createWorkersAIStub({ replies: [{ text: 'default' } satisfies AnswerReply] });
    const named = createWorkersAIStub({ replies: [{ text: 'named' } satisfies AnswerReply] });
    const env = { AI: byDefault, AI_EU: named };

    const first = await resolveProvider(model(), lookup, env).complete(request({ model: 'ignored' }));
    const second = await resolveProvider(model({ binding: 'AI_EU' }), lookup, env).complete(request());

    expect([first.text, second.text]).toEqual(['default', 'named']);
    expect(byDefault.calls.map((call) => call.model)).toEqual([MODEL]);
    expect(named.calls).toHaveLength(1);
  });

  it('THR-4: without the binding a model fails saying which binding to declare', async () => {
    const error = await failure(resolveProvider(model(), lookup, {}).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'model "llama" (workers-ai) is not configured: needs the Workers AI binding AI in wrangler.toml',
    );
  });
});
