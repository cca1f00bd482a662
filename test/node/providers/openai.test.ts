/**
 * What only the OpenAI-compatible provider does (THR-4), against a local server that speaks the
 * streaming protocol byte for byte, plus injected streams for the cases a well-behaved server never
 * produces (interleaved or index-less fragments, a body held open). What every provider does is in
 * conformance.test.ts. Backoff waits go through an injected sleep, so no test depends on timing.
 */
import { describe, expect, it } from 'vitest';
import { type OpenAIServer, type StreamReply, startOpenAIServer } from '../../../harness/openai-server.mjs';
import { type ModelRequest, ProviderError } from '../../../src/engine/ports/provider.js';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../../src/providers/openai/index.js';
import { sleep as realSleep } from '../../../src/providers/transport/index.js';
import {
  failure,
  helloRequest,
  PROMPT_GUARD_MS,
  recordingSleep,
  serverPerFile,
  streamFetch,
  within,
} from '../../support/provider-kit.js';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';

let server: OpenAIServer;
serverPerFile(startOpenAIServer, (started) => {
  server = started;
});

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return helloRequest('gpt-4o-mini', overrides);
}

function provider(options: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({ baseURL: `${server.baseURL}/`, apiKey: API_KEY, sleep: async () => {}, ...options });
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null, model = 'm-1'): unknown {
  return {
    id: 'chatcmpl-x',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function sse(...events: unknown[]): string {
  return events.map((event) => (typeof event === 'string' ? event : `data: ${JSON.stringify(event)}\n\n`)).join('');
}

describe('OpenAIProvider: streaming', () => {
  it('THR-4: posts the streaming request to {baseURL}/chat/completions with a bearer key', async () => {
    server.enqueue({ text: 'ok' });
    const tools: ModelRequest['tools'] = [
      {
        type: 'function',
        function: { name: 'lookup', description: 'Looks a word up.', parameters: { type: 'object' } },
      },
    ];

    await provider().complete(request({ tools, toolChoice: 'required', parallelToolCalls: false }));

    const [recorded] = server.requests;
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1/chat/completions');
    expect(recorded?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(recorded?.headers['content-type']).toBe('application/json');
    expect(recorded?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: request().messages,
      stream: true,
      stream_options: { include_usage: true },
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
  });

  it('THR-4: omits tools, tool_choice, parallel_tool_calls and Authorization when unset', async () => {
    server.enqueue({ text: 'ok' });

    await provider({ apiKey: undefined }).complete(request());

    const [recorded] = server.requests;
    expect(recorded?.headers.authorization).toBeUndefined();
    expect(Object.keys(recorded?.body ?? {}).sort()).toEqual(['messages', 'model', 'stream', 'stream_options']);
  });

  it('THR-4: orders tool calls by index even when their fragments interleave', async () => {
    const body = sse(
      chunk({ role: 'assistant', content: null }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'second', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'first', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"b":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '2}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    );

    const response = await provider({ fetch: streamFetch([body]) }).complete(request());

    expect(response.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ['call_a', 'first', '{"a":1}'],
      ['call_b', 'second', '{"b":2}'],
    ]);
  });

  it('THR-4: generates a call_ id when the server sends none', async () => {
    server.enqueue({
      omitToolCallIds: true,
      toolCalls: [
        { name: 'one', arguments: '{}' },
        { name: 'two', arguments: '{"x":1}' },
      ],
    });

    const response = await provider().complete(request());

    const ids = response.toolCalls.map((call) => call.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(new Set(ids).size).toBe(2);
    expect(response.toolCalls.map((call) => call.function.name)).toEqual(['one', 'two']);
  });

  it('THR-4: ignores SSE comment lines', async () => {
    const reply: StreamReply = { text: 'Still here.', comment: 'OPENROUTER PROCESSING' };
    server.enqueue(reply);
    const raw: Promise<string>[] = [];
    const teeFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      raw.push(response.clone().text());
      return response;
    };

    const response = await provider({ fetch: teeFetch }).complete(request());

    expect(await raw[0]).toContain('\n\n: OPENROUTER PROCESSING\n\n');
    expect(response.text).toBe('Still here.');
  });

  it('THR-4: records usage, finish reason and the model that answered', async () => {
    server.enqueue({
      text: 'Hi.',
      model: 'openai/gpt-4o-mini-2024-07-18',
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    });

    const response = await provider().complete(request());

    expect(response.usage).toEqual({ promptTokens: 12, completionTokens: 5, totalTokens: 17 });
    expect(response.finishReason).toBe('stop');
    expect(response.model).toBe('openai/gpt-4o-mini-2024-07-18');
  });

  it('THR-4: falls back to the requested model and null usage when the stream names neither', async () => {
    const body = sse({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] }, 'data: [DONE]\n\n');

    const response = await provider({ fetch: streamFetch([body]) }).complete(request({ model: 'local-llama' }));

    expect(response).toMatchObject({ text: 'x', model: 'local-llama', usage: null, finishReason: 'stop' });
  });

  it('THR-4: a token count too large to be a number reads as 0, not Infinity', async () => {
    // 1e999 is valid JSON that parses to Infinity; a server may send it by mistake or on purpose.
    const usage = '{"prompt_tokens":1e999,"completion_tokens":-1e999,"total_tokens":7}';
    const body = `${sse(chunk({ content: 'x' }, 'stop'))}data: {"choices":[],"usage":${usage}}\n\ndata: [DONE]\n\n`;

    const response = await provider({ fetch: streamFetch([body]) }).complete(request());

    expect(response.text).toBe('x');
    expect(response.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 7 });
  });

  it('THR-4: a stream that ends without [DONE] still completes', async () => {
    server.enqueue({
      text: 'No terminator.',
      omitDone: true,
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });

    const response = await provider().complete(request());

    expect(response.text).toBe('No terminator.');
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 });
  });

  it('THR-4: a last event cut off before its blank line is still read', async () => {
    const body = `${sse(chunk({ content: 'Hello' }))}data: ${JSON.stringify(chunk({ content: ' there' }, 'stop'))}`;

    const response = await provider({ fetch: streamFetch([body]) }).complete(request());

    expect(response.text).toBe('Hello there');
    expect(response.finishReason).toBe('stop');
  });

  it('THR-4: continues a tool call whose fragments carry no index', async () => {
    const body = sse(
      chunk({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'a', arguments: '{"x"' } }] }),
      chunk({ tool_calls: [{ function: { arguments: ':1}' } }] }),
      chunk({ tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'b', arguments: '{}' } }] }),
      'data: [DONE]\n\n',
    );

    const response = await provider({ fetch: streamFetch([body]) }).complete(request());

    expect(response.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ['call_1', 'a', '{"x":1}'],
      ['call_2', 'b', '{}'],
    ]);
  });

  it('THR-4: accepts a non-streamed chat.completion from a server that ignores stream', async () => {
    server.enqueue({
      status: 200,
      body: {
        object: 'chat.completion',
        model: 'tiny',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Whole.',
              tool_calls: [{ type: 'function', function: { name: 't', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 },
      },
    });
    const deltas: string[] = [];

    const response = await provider().complete(request(), { onTextDelta: (delta) => deltas.push(delta) });

    expect(deltas).toEqual(['Whole.']);
    expect(response).toMatchObject({ text: 'Whole.', model: 'tiny', finishReason: 'tool_calls' });
    expect(response.toolCalls[0]).toMatchObject({ type: 'function', function: { name: 't', arguments: '{}' } });
    expect(response.toolCalls[0]?.id).toMatch(/^call_/);
  });
});

describe('OpenAIProvider: retries', () => {
  it('THR-4: caps Retry-After (seconds or HTTP date) at maxDelayMs', async () => {
    const inThreeSeconds = new Date(Date.now() + 3000).toUTCString();
    server.enqueue(
      { status: 429, headers: { 'retry-after': '120' } },
      { status: 429, headers: { 'retry-after': inThreeSeconds } },
      { text: 'ok' },
    );
    const { delays, sleep } = recordingSleep();

    await provider({ sleep, maxDelayMs: 2500 }).complete(request());

    expect(delays).toHaveLength(2);
    expect(delays[0]).toBe(2500);
    // The date has whole-second precision, so the wait is between 1 and 3 seconds before the cap.
    expect(delays[1]).toBeGreaterThan(1000);
    expect(delays[1]).toBeLessThanOrEqual(2500);
  });

  it('THR-4: retries 5xx with exponential backoff and jitter, then succeeds', async () => {
    server.enqueue({ status: 500 }, { status: 503 }, { status: 502 }, { text: 'recovered' });
    const { delays, sleep } = recordingSleep();

    const response = await provider({ sleep, baseDelayMs: 100, maxDelayMs: 300 }).complete(request());

    expect(response.text).toBe('recovered');
    expect(server.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
    const [first = -1, second = -1, third = -1] = delays;
    expect(first).toBeGreaterThanOrEqual(50);
    expect(first).toBeLessThanOrEqual(100);
    expect(second).toBeGreaterThanOrEqual(100);
    expect(second).toBeLessThanOrEqual(200);
    expect(third).toBeGreaterThanOrEqual(150);
    expect(third).toBeLessThanOrEqual(300);
  });

  it('THR-4: retries a network failure, then succeeds', async () => {
    server.enqueue({ text: 'reached' });
    let calls = 0;
    const flakyFetch: typeof fetch = async (input, init) => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed', { cause: new Error('connect ECONNRESET') });
      return fetch(input, init);
    };
    const { delays, sleep } = recordingSleep();

    const response = await provider({ fetch: flakyFetch, sleep }).complete(request());

    expect(response.text).toBe('reached');
    expect(calls).toBe(2);
    expect(delays).toHaveLength(1);
  });

  it('THR-4: reports an unreachable server after the retries', async () => {
    const closed = await startOpenAIServer();
    const baseURL = closed.baseURL;
    await closed.close();
    const { delays, sleep } = recordingSleep();

    const error = await failure(
      new OpenAIProvider({ baseURL, apiKey: API_KEY, sleep, maxRetries: 1 }).complete(request()),
    );

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(
      `OpenAI-compatible provider at ${baseURL}/chat/completions could not be reached`,
    );
    expect((error as ProviderError).message).toContain('(gave up after 2 attempts)');
    expect((error as ProviderError).status).toBeUndefined();
    expect(delays).toHaveLength(1);
  });
});

describe('OpenAIProvider: failures', () => {
  it('THR-4: a 401 fails at once with the provider message and without the API key', async () => {
    server.enqueue({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const { delays, sleep } = recordingSleep();

    const error = await failure(provider({ sleep }).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    const providerError = error as ProviderError;
    expect(providerError.message).toContain('OpenAI-compatible provider answered 401: Incorrect API key provided');
    expect(providerError.message).not.toContain(API_KEY);
    expect(providerError.status).toBe(401);
    expect(providerError.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('THR-4: a 404 with a plain-text body quotes the text', async () => {
    server.enqueue({ status: 404, body: '404 page not found' });

    const error = await failure(provider().complete(request()));

    expect((error as ProviderError).message).toBe('OpenAI-compatible provider answered 404: 404 page not found');
  });

  it('THR-4: an error object inside the stream becomes a ProviderError', async () => {
    server.enqueue({ text: 'Partial answer', streamError: { message: 'Upstream provider overloaded', code: 502 } });
    const deltas: string[] = [];

    const error = await failure(provider().complete(request(), { onTextDelta: (delta) => deltas.push(delta) }));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'OpenAI-compatible provider reported an error mid-stream: Upstream provider overloaded',
    );
    expect((error as ProviderError).status).toBe(502);
    expect(deltas.join('')).toBe('Partial answer');
    expect(server.requests).toHaveLength(1);
  });

  it('THR-4: a body that is neither SSE nor JSON fails clearly', async () => {
    server.enqueue({
      status: 200,
      body: '<html><body>Bad gateway</body></html>',
      headers: { 'content-type': 'text/html' },
    });

    const error = await failure(provider().complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'OpenAI-compatible provider answered 200 with a body that is neither an SSE stream nor JSON (content-type text/html): <html><body>Bad gateway</body></html>',
    );
  });

  it('THR-4: a JSON error in a 200 body becomes a ProviderError', async () => {
    server.enqueue({ status: 200, body: { error: { message: 'model not found', code: 404 } } });

    const error = await failure(provider().complete(request()));

    expect((error as ProviderError).message).toBe('OpenAI-compatible provider reported an error: model not found');
    expect((error as ProviderError).status).toBe(404);
  });

  it('THR-4: a stream with only comments fails clearly', async () => {
    const error = await failure(provider({ fetch: streamFetch([': keep-alive\n\n']) }).complete(request()));

    expect((error as ProviderError).message).toBe(
      'OpenAI-compatible provider answered 200 but the stream ended without any data',
    );
  });
});

describe('OpenAIProvider: the body after the answer', () => {
  it('THR-4: a server that holds the stream open after [DONE] does not hold the step', async () => {
    const { createServer } = await import('node:http');
    const held = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The answer is complete, but the body never ends.
        res.write(sse(chunk({ role: 'assistant', content: 'hi' }), chunk({}, 'stop'), 'data: [DONE]\n\n'));
      });
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const { port } = held.address() as { port: number };
    try {
      const client = new OpenAIProvider({ baseURL: `http://127.0.0.1:${port}/v1/`, apiKey: API_KEY });
      const answer = await within(client.complete(request(), {}), PROMPT_GUARD_MS);
      expect(answer).toMatchObject({ text: 'hi', finishReason: 'stop' });
    } finally {
      held.closeAllConnections();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});

describe('the backoff sleep', () => {
  it("THR-4: the backoff sleep waits its time, fractions included, and rejects with the caller's own reason", async () => {
    const started = Date.now();
    await realSleep(30.5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);

    const controller = new AbortController();
    const pending = realSleep(60_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(within(pending, PROMPT_GUARD_MS)).rejects.toThrow('stopped');

    // A caller aborting with a TimeoutError of its own is an abort, not the end of the wait.
    const timedOut = AbortSignal.abort(new DOMException('caller deadline', 'TimeoutError'));
    await expect(realSleep(60_000, timedOut)).rejects.toThrow('caller deadline');
  });
});
