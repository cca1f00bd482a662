/**
 * What only the Anthropic provider does (THR-4), against a local server that streams the Messages
 * API's events: the request mapping, read back from what the server received, thinking blocks,
 * stop reasons, cached usage, and Anthropic's own errors and retries. What every provider does is in
 * conformance.test.ts. Backoff waits go through an injected sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../../harness/openai-server.mjs';
import { type ModelRequest, ProviderError } from '../../../src/engine/ports/provider.js';
import {
  AnthropicProvider,
  type AnthropicProviderOptions,
  DEFAULT_MAX_TOKENS,
  THINKING_BUDGETS,
} from '../../../src/providers/anthropic/index.js';
import { resolveProvider } from '../../../src/providers/index.js';
import { defineModel, type ModelDefinition, type ModelMessage } from '../../../src/spec/index.js';
import { type AnthropicServer, errorBody, startAnthropicServer } from '../../support/anthropic-server.js';
import { failure, helloRequest, recordingSleep, serverPerFile } from '../../support/provider-kit.js';

const API_KEY = 'sk-ant-test-SECRET-0123456789';

let server: AnthropicServer;
serverPerFile(startAnthropicServer, (started) => {
  server = started;
});

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return helloRequest('claude-sonnet-4-5', overrides);
}

function provider(options: Partial<AnthropicProviderOptions> = {}): AnthropicProvider {
  return new AnthropicProvider({ baseURL: server.url, apiKey: API_KEY, sleep: async () => {}, ...options });
}

/** The body of the nth request the server received. */
function sent(index = 0) {
  return server.requests[index]?.body;
}

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Get the weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const PNG = 'iVBORw0KGgo=';

describe('AnthropicProvider: the request', () => {
  it('THR-4: posts a streaming request to {baseURL}/v1/messages with x-api-key and anthropic-version', async () => {
    await provider().complete(request());

    const received = server.requests[0];
    expect(received?.path).toBe('/v1/messages');
    expect(received?.headers['x-api-key']).toBe(API_KEY);
    expect(received?.headers['anthropic-version']).toBe('2023-06-01');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers.authorization).toBeUndefined();
    expect(sent()).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: DEFAULT_MAX_TOKENS,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      stream: true,
    });
  });

  it('THR-4: a base URL ending in /v1 or a slash reaches the same path; no key, no x-api-key', async () => {
    await new AnthropicProvider({ baseURL: `${server.url}/v1/` }).complete(request());
    await new AnthropicProvider({ baseURL: `${server.url}/` }).complete(request());

    expect(server.requests.map((received) => received.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('THR-4: system messages become the top-level system; consecutive same-role messages merge into one turn', async () => {
    await provider().complete(
      request({
        messages: [
          { role: 'system', content: 'Rule one.' },
          { role: 'assistant', content: 'Earlier answer.' },
          { role: 'user', content: 'First.' },
          { role: 'system', content: 'Rule two.' },
          { role: 'user', content: 'Second.' },
          { role: 'assistant', content: '' },
          { role: 'assistant', content: 'Reply.' },
          { role: 'user', content: 'Third.' },
        ],
      }),
    );

    expect(sent().system).toBe('Rule one.\n\nRule two.');
    expect(sent().messages).toEqual([
      // The API wants a user turn first.
      { role: 'user', content: [{ type: 'text', text: '(The conversation so far follows.)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Earlier answer.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'First.' },
          { type: 'text', text: 'Second.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Reply.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Third.' }] },
    ]);
  });

  it('THR-4: tool calls become tool_use blocks; their results, grouped in one user turn, tool_result blocks', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Weather in Paris, Oslo and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'toolu_3', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: the weather service is down' },
      { role: 'tool', tool_call_id: 'toolu_3', content: '' },
      // EXE-9: a step's images follow its results as a user message.
      { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
    ];

    await provider().complete(request({ messages, tools: [weatherTool] }));

    expect(sent().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris, Oslo and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_3', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: 'Error: the weather service is down',
            is_error: true,
          },
          // An empty result still answers its call.
          { type: 'tool_result', tool_use_id: 'toolu_3' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
    ]);
  });

  it('THR-4: malformed or empty JSON arguments go back as an empty input object instead of failing the request', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_bad', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Par' } },
          { id: 'toolu_none', type: 'function', function: { name: 'get_weather', arguments: '' } },
          { id: 'toolu_list', type: 'function', function: { name: 'get_weather', arguments: '["Paris"]' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_bad', content: 'Error: the arguments are not valid JSON' },
      { role: 'tool', tool_call_id: 'toolu_none', content: 'Error: city is required' },
      { role: 'tool', tool_call_id: 'toolu_list', content: 'Error: the arguments must be an object' },
    ];

    await provider().complete(request({ messages, tools: [weatherTool] }));

    const calls = sent().messages[1].content;
    expect(calls.map((block: { input: unknown }) => block.input)).toEqual([{}, {}, {}]);
    expect(sent().messages[2].content.every((block: { is_error?: boolean }) => block.is_error)).toBe(true);
  });

  it('THR-4: images in user and tool messages become image blocks: data URLs as base64, others as url sources', async () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_9', type: 'function', function: { name: 'snap', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'toolu_9',
        content: [
          { type: 'text', text: 'A screenshot.' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ];

    await provider().complete(request({ messages }));

    expect(sent().messages[0].content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
    ]);
    expect(sent().messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_9',
        content: [
          { type: 'text', text: 'A screenshot.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
    ]);
  });

  it('THR-4: tools become { name, description, input_schema }; tool choice auto / none / required is auto / none / any', async () => {
    const choices = [undefined, 'auto', 'none', 'required'] as const;
    for (const toolChoice of choices) await provider().complete(request({ tools: [weatherTool], toolChoice }));
    await provider().complete(request({ tools: [weatherTool], toolChoice: 'auto', parallelToolCalls: false }));
    await provider().complete(request({ tools: [weatherTool], parallelToolCalls: false }));
    await provider().complete(request({ tools: [weatherTool], toolChoice: 'required', parallelToolCalls: false }));
    await provider().complete(request({ toolChoice: 'auto' }));

    expect(sent(0).tools).toEqual([
      {
        name: 'get_weather',
        description: 'Get the weather for a city.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ]);
    expect(server.requests.map((received) => received.body.tool_choice)).toEqual([
      undefined,
      { type: 'auto' },
      { type: 'none' },
      { type: 'any' },
      { type: 'auto', disable_parallel_tool_use: true },
      { type: 'auto', disable_parallel_tool_use: true },
      { type: 'any', disable_parallel_tool_use: true },
      // Without tools, neither tools nor a tool choice.
      undefined,
    ]);
    expect(sent(7).tools).toBeUndefined();
  });

  it('THR-4: settings: max_tokens, temperature (at most 1), top_p (without a temperature) and stop_sequences', async () => {
    await provider().complete(request({ settings: { maxOutputTokens: 300, temperature: 0.2, stop: ['END', 'STOP'] } }));
    await provider().complete(request({ settings: { topP: 0.9 } }));
    await provider().complete(request({ settings: { temperature: 1.5, topP: 0.9 } }));

    expect(sent(0)).toMatchObject({ max_tokens: 300, temperature: 0.2, stop_sequences: ['END', 'STOP'] });
    expect(sent(1)).toMatchObject({ max_tokens: DEFAULT_MAX_TOKENS, top_p: 0.9 });
    expect(sent(1).temperature).toBeUndefined();
    // Recent models refuse both: the temperature wins, capped at Anthropic's maximum.
    expect(sent(2).temperature).toBe(1);
    expect(sent(2).top_p).toBeUndefined();
  });

  it('THR-4: reasoningEffort turns on extended thinking with a budget per level, on top of the answer tokens', async () => {
    for (const reasoningEffort of ['low', 'medium', 'high'] as const) {
      await provider().complete(request({ settings: { reasoningEffort, temperature: 0.5, topP: 0.5 } }));
    }
    await provider().complete(request({ settings: { reasoningEffort: 'high', maxOutputTokens: 8000, topP: 0.97 } }));
    await provider().complete(request({ settings: { reasoningEffort: 'high', maxOutputTokens: 2000 } }));

    const levels = [THINKING_BUDGETS.low, THINKING_BUDGETS.medium, THINKING_BUDGETS.high];
    levels.forEach((budget, index) => {
      expect(sent(index).thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      expect(sent(index).max_tokens).toBe(DEFAULT_MAX_TOKENS + budget);
      // Thinking refuses a changed temperature and a top_p below 0.95.
      expect(sent(index).temperature).toBeUndefined();
      expect(sent(index).top_p).toBeUndefined();
    });
    // Under a cap, the budget leaves 1024 tokens for the answer; a top_p of 0.95 or more is allowed.
    expect(sent(3)).toMatchObject({
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 6976 },
      top_p: 0.97,
    });
    // A cap too small for the 1024-token minimum budget means no thinking.
    expect(sent(4).max_tokens).toBe(2000);
    expect(sent(4).thinking).toBeUndefined();
  });

  it('THR-4: a step that must call a tool is sent without thinking (forced tool use refuses it)', async () => {
    await provider().complete(
      request({ tools: [weatherTool], toolChoice: 'required', settings: { reasoningEffort: 'low', temperature: 0.3 } }),
    );

    expect(sent().thinking).toBeUndefined();
    expect(sent().tool_choice).toEqual({ type: 'any' });
    expect(sent().temperature).toBe(0.3);
  });

  it('THR-4: responseFormat is structured outputs: output_config.format with the schema in the subset Anthropic accepts', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, description: 'Who.' },
        count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        when: { type: 'string', format: 'date-time' },
        nested: { type: 'object', properties: { ok: { type: 'boolean' } } },
        either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['name'],
      additionalProperties: true,
    };

    await provider().complete(request({ settings: { responseFormat: { name: 'answer', schema } } }));

    expect(sent().output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Who.\n\n{minLength: 2}' },
            count: { type: 'integer', description: '{minimum: 0}' },
            tags: { type: 'array', items: { type: 'string' }, minItems: 1, description: '{maxItems: 3}' },
            when: { type: 'string', format: 'date-time' },
            nested: { type: 'object', properties: { ok: { type: 'boolean' } }, additionalProperties: false },
            either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
  });
});

describe('AnthropicProvider: the stream', () => {
  it('THR-4: streams text deltas in order; usage counts cached input; stop reasons are mapped', async () => {
    server.enqueue({
      text: 'The quick brown fox.',
      usage: { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 30, output_tokens: 1 },
      outputUsage: { output_tokens: 7 },
      model: 'claude-sonnet-4-5-20250929',
    });
    const deltas: string[] = [];

    const response = await provider().complete(request(), { onTextDelta: (delta) => deltas.push(delta) });

    expect(deltas).toEqual(['The ', 'quic', 'k br', 'own ', 'fox.']);
    expect(response).toEqual({
      text: 'The quick brown fox.',
      toolCalls: [],
      usage: { promptTokens: 142, completionTokens: 7, totalTokens: 149, cachedTokens: 100 },
      finishReason: 'stop',
      model: 'claude-sonnet-4-5-20250929',
    });
  });

  it('THR-4: stop reasons: end_turn → stop, tool_use → tool_calls, max_tokens → length, others as they are', async () => {
    const reasons = ['end_turn', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn'];
    const finish: (string | null)[] = [];
    for (const stopReason of reasons) {
      server.enqueue({ text: 'x', stopReason });
      finish.push((await provider().complete(request())).finishReason);
    }
    server.enqueue({ toolCalls: [{ name: 'get_weather', input: '{}' }] });
    finish.push((await provider().complete(request())).finishReason);

    expect(finish).toEqual(['stop', 'length', 'stop', 'refusal', 'pause_turn', 'tool_calls']);
  });

  it('THR-4: assembles tool_use blocks from their input_json_delta fragments, with ids and names, in order', async () => {
    server.enqueue({
      text: 'Let me check.',
      toolCalls: [
        { id: 'toolu_a', name: 'get_weather', input: '{"city": "Paris", "units": "metric"}' },
        { id: 'toolu_b', name: 'list_cities', input: '' },
      ],
    });
    const deltas: string[] = [];

    const response = await provider().complete(request({ tools: [weatherTool] }), {
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(deltas.join('')).toBe('Let me check.');
    expect(response.text).toBe('Let me check.');
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      {
        id: 'toolu_a',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city": "Paris", "units": "metric"}' },
      },
      // A call without arguments streams no fragment: its input is the block's own, `{}`.
      { id: 'toolu_b', type: 'function', function: { name: 'list_cities', arguments: '{}' } },
    ]);
  });

  it('THR-4: thinking never becomes answer text, and comes back unmodified before the tool_use it led to', async () => {
    server.enqueue(
      {
        blocks: [
          { type: 'thinking', thinking: 'The user wants Paris weather.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque-data' },
        ],
        toolCalls: [{ id: 'toolu_t', name: 'get_weather', input: '{"city":"Paris"}' }],
      },
      { blocks: [{ type: 'thinking', thinking: 'Now answer.', signature: 'sig-2' }], text: 'It is 18°C.' },
    );
    const model = provider();
    const deltas: string[] = [];
    const settings = { reasoningEffort: 'low' as const };

    const first = await model.complete(request({ tools: [weatherTool], settings }), {
      onTextDelta: (delta) => deltas.push(delta),
    });
    const second = await model.complete(
      request({
        tools: [weatherTool],
        settings,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.text || null, tool_calls: first.toolCalls },
          { role: 'tool', tool_call_id: 'toolu_t', content: '18°C' },
        ],
      }),
      { onTextDelta: (delta) => deltas.push(delta) },
    );

    expect(first.text).toBe('');
    expect(second.text).toBe('It is 18°C.');
    expect(deltas.join('')).toBe('It is 18°C.');
    expect(sent(1).thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS.low });
    expect(sent(1).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants Paris weather.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque-data' },
        { type: 'tool_use', id: 'toolu_t', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
  });

  it('THR-4: a tool loop whose thinking is gone (another instance, a restart) continues without thinking', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_x', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_x', content: '18°C' },
    ];

    await provider().complete(request({ messages, tools: [weatherTool], settings: { reasoningEffort: 'medium' } }));
    // A new turn after a text answer needs no earlier thinking.
    await provider().complete(
      request({
        messages: [...messages, { role: 'assistant', content: 'It is 18°C.' }, { role: 'user', content: 'Thanks!' }],
        tools: [weatherTool],
        settings: { reasoningEffort: 'medium' },
      }),
    );

    expect(sent(0).thinking).toBeUndefined();
    expect(sent(0).max_tokens).toBe(DEFAULT_MAX_TOKENS);
    expect(sent(1).thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS.medium });
  });

  it('THR-4: accepts a whole JSON message from a server that ignores stream', async () => {
    server.enqueue({
      asJson: true,
      blocks: [{ type: 'thinking', thinking: 'hmm', signature: 's' }],
      text: 'Hi there.',
      toolCalls: [{ id: 'toolu_j', name: 'get_weather', input: '{"city":"Rome"}' }],
      usage: { input_tokens: 3, cache_read_input_tokens: 2 },
      outputUsage: { output_tokens: 4 },
    });
    const deltas: string[] = [];

    const response = await provider().complete(request(), { onTextDelta: (delta) => deltas.push(delta) });

    expect(deltas).toEqual(['Hi there.']);
    expect(response).toMatchObject({
      text: 'Hi there.',
      toolCalls: [{ id: 'toolu_j', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }],
      usage: { promptTokens: 5, completionTokens: 4, totalTokens: 9, cachedTokens: 2 },
      finishReason: 'tool_calls',
    });
  });
});

describe('AnthropicProvider: failures and retries', () => {
  it('THR-4: retries 429 and 529 after their retry-after, and 5xx with backoff, then succeeds', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 529, headers: { 'retry-after': '1' } },
      { status: 500 },
      { text: 'finally' },
    );
    const { delays, sleep } = recordingSleep();

    const response = await provider({ sleep, baseDelayMs: 100 }).complete(request());

    expect(response.text).toBe('finally');
    expect(server.requests).toHaveLength(4);
    expect(delays.slice(0, 2)).toEqual([2000, 1000]);
    expect(delays[2]).toBeGreaterThanOrEqual(200);
    expect(delays[2]).toBeLessThanOrEqual(400);
  });

  it("THR-4: gives up after maxRetries with Anthropic's error type and message, and the status", async () => {
    for (let index = 0; index < 3; index++) {
      server.enqueue({
        status: 529,
        body: errorBody('overloaded_error', 'Overloaded'),
        headers: { 'request-id': 'req_011' },
      });
    }

    const error = (await failure(provider({ maxRetries: 2 }).complete(request()))) as ProviderError;

    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBe(529);
    expect(error.message).toContain('overloaded_error: Overloaded (request-id req_011)');
    expect(error.message).toContain('gave up after 3 attempts');
  });

  it('THR-4: a 400 fails at once, quoting the error, never the key', async () => {
    server.enqueue({
      status: 400,
      body: errorBody('invalid_request_error', `max_tokens: must be positive (key ${API_KEY})`),
    });

    const error = (await failure(provider().complete(request()))) as ProviderError;

    expect(server.requests).toHaveLength(1);
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('invalid_request_error: max_tokens: must be positive');
    expect(error.message).not.toContain(API_KEY);
  });

  it('THR-4: an overloaded_error event before any text is retried; after text it fails the step', async () => {
    server.enqueue(
      { text: 'never shown', error: { type: 'overloaded_error', message: 'Overloaded' }, errorAt: 'start' },
      { text: 'second try' },
    );
    const deltas: string[] = [];

    const response = await provider().complete(request(), { onTextDelta: (delta) => deltas.push(delta) });

    expect(response.text).toBe('second try');
    expect(deltas.join('')).toBe('second try');
    expect(server.requests).toHaveLength(2);

    server.reset();
    server.enqueue({ text: 'half an answer', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const error = (await failure(provider().complete(request()))) as ProviderError;

    expect(server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBe(529);
    expect(error.message).toContain('reported an error mid-stream: overloaded_error: Overloaded');
  });

  it('THR-4: an error event that is not transient fails at once', async () => {
    server.enqueue({ error: { type: 'invalid_request_error', message: 'prompt is too long' }, errorAt: 'start' });

    const error = (await failure(provider().complete(request()))) as ProviderError;

    expect(server.requests).toHaveLength(1);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('invalid_request_error: prompt is too long');
  });

  it('THR-4: a stream cut before message_stop fails; retried only while no text was shown', async () => {
    server.enqueue({ toolCalls: [{ name: 'f', input: '{"a":1}' }], omitStop: true }, { text: 'whole' });
    expect((await provider().complete(request())).text).toBe('whole');

    server.reset();
    server.enqueue({ text: 'cut', omitStop: true });
    const error = (await failure(provider().complete(request()))) as ProviderError;
    expect(server.requests).toHaveLength(1);
    expect(error.message).toContain('the stream ended before message_stop');
  });
});

describe('anthropic models in the resolver', () => {
  let openai: OpenAIServer;

  beforeAll(async () => {
    openai = await startOpenAIServer();
  });

  afterAll(async () => {
    await openai.close();
  });

  function lookup(...models: ModelDefinition[]) {
    return (name: string) => {
      const found = models.find((model) => model.name === name);
      if (!found) throw new Error(`no model ${name}`);
      return found;
    };
  }

  it('THR-4: reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL; without a key or endpoint it names the key to set', async () => {
    const claude = defineModel({ name: 'claude', provider: 'anthropic', model: 'claude-haiku-4-5' });

    const response = await resolveProvider(claude, lookup(claude), {
      ANTHROPIC_API_KEY: API_KEY,
      ANTHROPIC_BASE_URL: server.url,
    }).complete(request({ model: 'ignored' }));
    const missing = await failure(resolveProvider(claude, lookup(claude), {}).complete(request()));

    expect(response.text).toBe('Hello.');
    expect(sent().model).toBe('claude-haiku-4-5');
    expect(server.requests[0]?.headers['x-api-key']).toBe(API_KEY);
    expect((missing as Error).message).toContain('set ANTHROPIC_API_KEY');
  });

  it('THR-4: an anthropic model whose server answers 500 falls back to an OpenAI-compatible model', async () => {
    const claude = defineModel({
      name: 'claude',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseURL: server.url,
      apiKeyVariable: 'CLAUDE_KEY',
      fallbacks: ['backup'],
    });
    const backup = defineModel({ name: 'backup', provider: 'openai', model: 'gpt-4o-mini', baseURL: openai.baseURL });
    // Every attempt answers 500 at once (retry-after 0), the retries included.
    for (let index = 0; index < 4; index++) server.enqueue({ status: 500, headers: { 'retry-after': '0' } });
    openai.enqueue({ text: 'answered by the fallback' });
    const deltas: string[] = [];

    const response = await resolveProvider(claude, lookup(claude, backup), { CLAUDE_KEY: API_KEY }).complete(
      request({ model: 'claude' }),
      { onTextDelta: (delta) => deltas.push(delta) },
    );

    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((received) => received.body.model === 'claude-sonnet-4-5')).toBe(true);
    expect(openai.requests).toHaveLength(1);
    expect(openai.requests[0]?.body?.model).toBe('gpt-4o-mini');
    // The OpenAI-compatible server received the same conversation, in its own protocol.
    expect(openai.requests[0]?.body?.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello' },
    ]);
    expect(response.text).toBe('answered by the fallback');
    expect(deltas.join('')).toBe('answered by the fallback');
    expect(response.model).toBe('gpt-4o-mini');
  });
});
