/**
 * What only the Google Gemini provider does (THR-4), against a local server that speaks Gemini's
 * streaming protocol byte for byte: its framing, whole function calls, thoughts, refusals, and
 * Google's errors and retry delays. What every provider does is in conformance.test.ts; the request
 * body is covered in google-request.test.ts. Backoff waits go through an injected sleep, so no test
 * depends on timing.
 */
import { describe, expect, it } from 'vitest';
import { type GoogleServer, startGoogleServer, streamFrames } from '../../../harness/google-server.mjs';
import { type ModelRequest, ProviderError } from '../../../src/engine/ports/provider.js';
import { GoogleProvider, type GoogleProviderOptions } from '../../../src/providers/google/index.js';
import { failure, helloRequest, recordingSleep, serverPerFile, streamFetch } from '../../support/provider-kit.js';

const API_KEY = 'AIza-test-SECRET-0123456789';

let server: GoogleServer;
serverPerFile(startGoogleServer, (started) => {
  server = started;
});

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return helloRequest('gemini-2.5-flash', overrides);
}

function provider(options: Partial<GoogleProviderOptions> = {}): GoogleProvider {
  return new GoogleProvider({ baseURL: server.url, apiKey: API_KEY, sleep: async () => {}, ...options });
}

function deltasOf(): { deltas: string[]; onTextDelta: (delta: string) => void } {
  const deltas: string[] = [];
  return { deltas, onTextDelta: (delta) => deltas.push(delta) };
}

describe('GoogleProvider: streaming', () => {
  it('THR-4: the stream is CRLF-framed Google JSON without a terminator, and parses split at every byte', async () => {
    const text = 'Grüße, 世界 🌍!';
    const frames = streamFrames(
      {
        text,
        chunkSize: 3,
        functionCalls: [{ name: 'lookup', args: { q: 'ü' } }],
        usage: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
      },
      {},
      'gemini-2.5-flash',
    );
    const wire = frames.join('');
    expect(
      wire.startsWith('data: {"candidates": [{"content": {"parts": [{"text": "Grü"}],"role": "model"},"index": 0}]'),
    ).toBe(true);
    expect(frames.every((frame) => frame.endsWith('}\r\n\r\n'))).toBe(true);
    expect(frames.at(-1)).toContain('"finishReason": "STOP"');
    const pieces = Array.from(new TextEncoder().encode(wire), (byte) => Uint8Array.of(byte));
    const { deltas, onTextDelta } = deltasOf();

    const response = await provider({ fetch: streamFetch(pieces) }).complete(request(), { onTextDelta });

    expect(deltas.join('')).toBe(text);
    expect(response.text).toBe(text);
    expect(response.toolCalls.map((call) => call.function)).toEqual([{ name: 'lookup', arguments: '{"q":"ü"}' }]);
    expect(response.usage).toEqual({ promptTokens: 5, completionTokens: 7, totalTokens: 12 });
  });

  it('THR-4: several function calls in one step, each whole in its own chunk, get distinct call_ ids', async () => {
    const calls = [
      { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
      { name: 'get_time', args: { timezone: 'Europe/Paris' } },
      { name: 'get_news', args: { topics: ['a', 'b'], limit: 3, nested: { deep: true } } },
    ];
    server.enqueue({ functionCalls: calls }, { functionCalls: calls, callsPerChunk: 2 });
    const { deltas, onTextDelta } = deltasOf();

    const first = await provider().complete(request(), { onTextDelta });
    const second = await provider().complete(request());

    for (const response of [first, second]) {
      expect(
        response.toolCalls.map((call) => [call.type, call.function.name, JSON.parse(call.function.arguments)]),
      ).toEqual(calls.map((call) => ['function', call.name, call.args]));
      expect(response.finishReason).toBe('tool_calls');
      expect(response.text).toBe('');
      for (const call of response.toolCalls) expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    }
    const ids = [...first.toolCalls, ...second.toolCalls].map((call) => call.id);
    expect(new Set(ids).size).toBe(6);
    expect(deltas).toEqual([]);
  });

  it('THR-4: thought parts never become answer text; thought tokens count as output; cached tokens are reported', async () => {
    server.enqueue({
      thoughts: 'Hidden reasoning about the question.',
      text: 'Answer.',
      modelVersion: 'models/gemini-2.5-pro-preview-06-05',
      usage: {
        promptTokenCount: 1200,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 70,
        cachedContentTokenCount: 1024,
        totalTokenCount: 1300,
      },
    });
    const { deltas, onTextDelta } = deltasOf();

    const response = await provider().complete(request(), { onTextDelta });

    expect(deltas.join('')).toBe('Answer.');
    expect(response.text).toBe('Answer.');
    expect(response.usage).toEqual({
      promptTokens: 1200,
      completionTokens: 100,
      totalTokens: 1300,
      cachedTokens: 1024,
    });
    expect(response.model).toBe('gemini-2.5-pro-preview-06-05');
  });

  it('THR-4: MAX_TOKENS finishes as length; other finish reasons are passed on lower-cased', async () => {
    server.enqueue({ text: 'Cut sho', finishReason: 'MAX_TOKENS' }, { text: 'Odd.', finishReason: 'OTHER' });

    const cut = await provider().complete(request());
    const odd = await provider().complete(request());

    expect(cut).toMatchObject({ text: 'Cut sho', finishReason: 'length' });
    expect(odd).toMatchObject({ text: 'Odd.', finishReason: 'other' });
  });

  it('THR-4: reads the JSON array a server sends when it ignores alt=sse', async () => {
    server.enqueue({ text: 'Array body.', functionCalls: [{ name: 'f', args: { a: 1 } }] });
    const withoutSse: typeof fetch = (input, init) => fetch(String(input).replace('?alt=sse', ''), init);
    const { deltas, onTextDelta } = deltasOf();

    const response = await provider({ fetch: withoutSse }).complete(request(), { onTextDelta });

    expect(server.requests[0]?.query).toEqual({});
    expect(deltas.join('')).toBe('Array body.');
    expect(response.toolCalls.map((call) => call.function)).toEqual([{ name: 'f', arguments: '{"a":1}' }]);
    expect(response.finishReason).toBe('tool_calls');
  });
});

describe('GoogleProvider: refusals', () => {
  it('THR-4: an answer blocked for safety is an error naming the reason and the ratings', async () => {
    server.enqueue({
      text: 'Here is how to',
      finishReason: 'SAFETY',
      safetyRatings: [
        { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
        { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
      ],
    });

    const error = await failure(provider().complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'Gemini provider: Gemini blocked the answer for safety (finish reason SAFETY; HARM_CATEGORY_DANGEROUS_CONTENT: HIGH)',
    );
    expect((error as ProviderError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('THR-4: a blocked prompt is an error naming the block reason', async () => {
    server.enqueue({ blockReason: 'PROHIBITED_CONTENT' });

    const error = await failure(provider().complete(request()));

    expect((error as ProviderError).message).toBe(
      'Gemini provider: Gemini blocked the prompt (block reason PROHIBITED_CONTENT)',
    );
  });

  it('THR-4: a malformed function call is an error, not an empty answer', async () => {
    server.enqueue({ finishReason: 'MALFORMED_FUNCTION_CALL' });

    const error = await failure(provider().complete(request()));

    expect((error as ProviderError).message).toBe(
      'Gemini provider: the model produced a malformed function call (finish reason MALFORMED_FUNCTION_CALL)',
    );
  });

  it('THR-4: a stream that ends without a finish reason is an error, not a short answer', async () => {
    server.enqueue({ text: 'Half an ans', omitFinish: true });
    const { deltas, onTextDelta } = deltasOf();

    const error = await failure(provider().complete(request(), { onTextDelta }));

    expect((error as ProviderError).message).toBe(
      'Gemini provider: the stream ended before the model finished its answer (no finishReason)',
    );
    expect(deltas.join('')).toBe('Half an ans');
    expect(server.requests).toHaveLength(1);
  });
});

describe('GoogleProvider: errors and retries', () => {
  it('THR-4: an error event mid-stream fails with Gemini’s message and is not retried once bytes arrived', async () => {
    server.enqueue(
      {
        text: 'Partial answer',
        streamError: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
      },
      { text: 'never sent' },
    );
    const { deltas, onTextDelta } = deltasOf();

    const error = await failure(provider().complete(request(), { onTextDelta }));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      'Gemini provider reported an error mid-stream: 503 UNAVAILABLE: The model is overloaded. Please try again later.',
    );
    expect((error as ProviderError).status).toBe(503);
    expect(deltas.join('')).toBe('Partial answer');
    expect(server.requests).toHaveLength(1);
    expect(server.pending).toBe(1);
  });

  it('THR-4: without Retry-After, waits the RetryInfo delay of the error body, capped at maxDelayMs', async () => {
    server.enqueue({ status: 429, retryDelay: '1.5s' }, { status: 429, retryDelay: '34.4s' }, { text: 'quota back' });
    const { delays, sleep } = recordingSleep();

    const response = await provider({ sleep, maxDelayMs: 8000 }).complete(request());

    expect(response.text).toBe('quota back');
    expect(delays).toEqual([1500, 8000]);
  });

  it('THR-4: retries 500 and 503 (model overloaded) with backoff, then gives up with Gemini’s message', async () => {
    server.enqueue({ status: 500 }, { status: 503 }, { status: 503 }, { text: 'never reached' });
    const { delays, sleep } = recordingSleep();

    const error = await failure(
      provider({ sleep, maxRetries: 2, baseDelayMs: 100, maxDelayMs: 300 }).complete(request()),
    );

    expect(error).toBeInstanceOf(ProviderError);
    const providerError = error as ProviderError;
    expect(providerError.message).toBe(
      'Gemini provider answered 503 UNAVAILABLE: The model is overloaded. Please try again later. (gave up after 3 attempts)',
    );
    expect(providerError.status).toBe(503);
    expect(providerError.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(50);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeGreaterThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
  });

  it('THR-4: a 401 or 403 fails at once, and the API key never appears in the error', async () => {
    server.enqueue(
      {
        status: 401,
        body: { error: { code: 401, message: `Key ${API_KEY} is not valid.`, status: 'UNAUTHENTICATED' } },
      },
      { status: 403, body: `<html>Forbidden for key=${API_KEY}</html>` },
    );

    const unauthenticated = (await failure(provider().complete(request()))) as ProviderError;
    const forbidden = (await failure(provider().complete(request()))) as ProviderError;

    expect(unauthenticated.message).toBe('Gemini provider answered 401 UNAUTHENTICATED: Key [redacted] is not valid.');
    expect(forbidden.message).toBe('Gemini provider answered 403: <html>Forbidden for key=[redacted]</html>');
    for (const error of [unauthenticated, forbidden]) {
      expect(error.message).not.toContain(API_KEY);
      expect(error.retryable).toBe(false);
    }
    expect(server.requests).toHaveLength(2);
    expect(
      JSON.stringify(server.requests.map((recorded) => recorded.path + JSON.stringify(recorded.query))),
    ).not.toContain(API_KEY);
  });

  it('THR-4: reports an unreachable server after the retries', async () => {
    const closed = await startGoogleServer();
    const baseURL = closed.url;
    await closed.close();
    const { delays, sleep } = recordingSleep();

    const error = await failure(
      new GoogleProvider({ baseURL, apiKey: API_KEY, sleep, maxRetries: 1 }).complete(request()),
    );

    expect((error as ProviderError).message).toContain(
      `Gemini provider at ${baseURL}/v1beta/models/gemini-2.5-flash:streamGenerateContent could not be reached`,
    );
    expect((error as ProviderError).message).toContain('(gave up after 2 attempts)');
    expect(delays).toHaveLength(1);
  });

  it('THR-4: a body that is neither SSE nor JSON fails clearly', async () => {
    server.enqueue({ status: 200, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });

    const error = await failure(provider().complete(request()));

    expect((error as ProviderError).message).toBe(
      'Gemini provider answered 200 with a body that is neither an SSE stream nor JSON (content-type text/html): <html>Bad gateway</html>',
    );
  });
});
