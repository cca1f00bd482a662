/**
 * One conformance suite for every model provider (THR-4, EXE-9), run as hono runs one suite against
 * all its routers: each case below runs against the OpenAI-compatible, Anthropic, Gemini and Workers
 * AI providers, each through its adapter (<vendor>-adapter.ts), which scripts the vendor's local
 * server or stub binding byte for byte and builds its Provider. What the providers must all do is
 * here; what only one vendor does is in that vendor's own file beside this one. Backoff waits go
 * through an injected sleep, so no case depends on timing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderError, type ToolCallDelta } from '../../../src/engine/ports/index.js';
import { sleep as realSleep, type Sleep } from '../../../src/providers/transport/index.js';
import {
  byteByByte,
  failure,
  PROMPT_GUARD_MS,
  pieceStream,
  recordingSleep,
  within,
} from '../../support/provider-kit.js';
import { traced } from '../../support/span-recorder.js';
import { type Answer, type ProviderAdapter, requestFor, throughText } from './adapter.js';
import { anthropicAdapter } from './anthropic-adapter.js';
import { googleAdapter } from './google-adapter.js';
import { openaiAdapter } from './openai-adapter.js';
import { workersAIAdapter } from './workers-ai-adapter.js';

const ADAPTERS: ProviderAdapter[] = [openaiAdapter(), anthropicAdapter(), googleAdapter(), workersAIAdapter()];

const weather = { id: 'call_weather1', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' };
const time = { id: 'call_time2', name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' };

function deltasOf(): { deltas: string[]; onTextDelta: (delta: string) => void } {
  const deltas: string[] = [];
  return { deltas, onTextDelta: (delta) => deltas.push(delta) };
}

/** Each adapter's server is started once for its cases and emptied before each. */
function lifecycle(adapter: ProviderAdapter): void {
  beforeAll(() => adapter.start());
  afterAll(() => adapter.close());
  beforeEach(() => adapter.reset());
}

describe.each(ADAPTERS)('$name provider: the streamed answer', (adapter) => {
  lifecycle(adapter);
  const request = (overrides = {}) => requestFor(adapter, overrides);

  it('THR-4: streams text deltas in order and returns their concatenation', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    adapter.answer({ text, chunkSize: 4 });
    const { deltas, onTextDelta } = deltasOf();

    const response = await adapter.provider().complete(request(), { onTextDelta });

    expect(deltas).toHaveLength(Math.ceil(text.length / 4));
    expect(deltas.every((delta) => delta.length > 0 && delta.length <= 4)).toBe(true);
    expect(deltas.join('')).toBe(text);
    expect(response).toMatchObject({ text, toolCalls: [], finishReason: 'stop', model: adapter.model });
  });

  it('THR-4: reassembles tool calls streamed across chunks, arguments in fragments, in order, with their ids', async () => {
    adapter.answer({ toolCalls: [weather, time], chunkSize: 3 });
    const { deltas, onTextDelta } = deltasOf();

    const response = await adapter.provider().complete(request(), { onTextDelta });

    expect(response.toolCalls).toEqual([
      { id: weather.id, type: 'function', function: { name: weather.name, arguments: weather.arguments } },
      { id: time.id, type: 'function', function: { name: time.name, arguments: time.arguments } },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.text).toBe('');
    expect(deltas).toEqual([]);
  });

  it("ARGS-1: hands on each tool call's arguments as they grow, the whole text so far, under the call's final id", async () => {
    adapter.answer({ toolCalls: [weather, time], chunkSize: 3 });
    const deltas: ToolCallDelta[] = [];

    const response = await adapter.provider().complete(request(), { onToolCallDelta: (delta) => deltas.push(delta) });

    for (const call of response.toolCalls) {
      const own = deltas.filter((delta) => delta.id === call.id);
      expect(own.length).toBeGreaterThan(0);
      // Each delta extends the one before it, and the last is the finished call's arguments.
      own.forEach((delta, index) => {
        expect(call.function.arguments.startsWith(delta.argumentsText)).toBe(true);
        expect(delta.argumentsText.length).toBeGreaterThan(
          index === 0 ? 0 : (own[index - 1]?.argumentsText.length ?? 0),
        );
      });
      expect(own.at(-1)?.argumentsText).toBe(call.function.arguments);
      expect(own.every((delta) => delta.name === call.function.name)).toBe(true);
      // Gemini sends a call whole; the others stream its arguments in pieces.
      if (adapter.name !== 'google') expect(own.length).toBeGreaterThan(1);
    }
    expect(new Set(deltas.map((delta) => delta.id))).toEqual(new Set(response.toolCalls.map((call) => call.id)));
  });

  it('THR-4: text and tool calls in one step: the text streams, the calls follow it', async () => {
    adapter.answer({ text: 'Let me check.', toolCalls: [weather], chunkSize: 5 });
    const { deltas, onTextDelta } = deltasOf();

    const response = await adapter.provider().complete(request(), { onTextDelta });

    expect(deltas.join('')).toBe('Let me check.');
    expect(response.text).toBe('Let me check.');
    expect(response.toolCalls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      [weather.id, weather.name, weather.arguments],
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('THR-4: reports the usage the server counted', async () => {
    adapter.answer({ text: 'Hi.', usage: { prompt: 12, completion: 5, total: 17 } });

    const response = await adapter.provider().complete(request());

    expect(response.usage).toEqual({ promptTokens: 12, completionTokens: 5, totalTokens: 17 });
  });

  it('THR-4: parses an answer split at every byte, multi-byte characters included', async () => {
    const answer: Answer = {
      text: 'Grüße, 世界 🌍!',
      chunkSize: 3,
      toolCalls: [{ id: 'call_lookup', name: 'lookup', arguments: '{"q":"ü"}' }],
      usage: { prompt: 1, completion: 2, total: 3 },
    };
    const bytes = byteByByte(adapter.frames(answer).join(''));
    const { deltas, onTextDelta } = deltasOf();

    const response = await adapter.provider({}, [() => pieceStream(bytes)]).complete(request(), { onTextDelta });

    expect(deltas.join('')).toBe(answer.text);
    expect(response.text).toBe(answer.text);
    expect(response.toolCalls.map((call) => call.function)).toEqual([{ name: 'lookup', arguments: '{"q":"ü"}' }]);
    expect(response.usage).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
    expect(adapter.calls()).toBe(0);
  });

  it('THR-4: a stream event that is not JSON fails clearly', async () => {
    const pieces = [...throughText(adapter.frames({ text: 'a' }), 'a'), 'data: {"broken": [\n\n'];

    const error = await failure(adapter.provider({}, [() => pieceStream(pieces)]).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      `${adapter.errorName} sent a stream event that is not JSON: {"broken": [`,
    );
  });
});

describe.each(
  ADAPTERS.filter((adapter) => adapter.argumentsAsText),
)('$name provider: arguments sent as text', (adapter) => {
  lifecycle(adapter);

  it('THR-4: keeps malformed tool-call arguments as the raw string, for the executor to report', async () => {
    adapter.answer({ toolCalls: [{ id: 'call_broken', name: 'read', arguments: '{"path": "a.txt",' }] });

    const response = await adapter.provider().complete(requestFor(adapter));

    expect(response.toolCalls).toHaveLength(1);
    expect(response.toolCalls[0]?.function).toEqual({ name: 'read', arguments: '{"path": "a.txt",' });
  });
});

describe.each(ADAPTERS)('$name provider: the request', (adapter) => {
  lifecycle(adapter);

  it('EXE-9: images of a user message and of a tool result reach the model as their bytes and type', async () => {
    const jpeg = '/9j/4AAQSkZJRg==';
    const png = 'iVBORw0KGgo=';
    adapter.answer({ text: 'A cat and a chart.' });

    await adapter.provider().complete(
      requestFor(adapter, {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg}` } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_shot', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
          },
          {
            role: 'tool',
            tool_call_id: 'call_shot',
            content: [
              { type: 'text', text: 'took a screenshot' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
            ],
          },
        ],
      }),
    );

    expect(adapter.imagesSent(0)).toEqual([
      { mimeType: 'image/jpeg', data: jpeg },
      { mimeType: 'image/png', data: png },
    ]);
  });

  it("MSG-10, MSG-11: a user's image and PDF reach the vendor in its own form; Workers AI gets a note for the PDF", async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUg==';
    const pdf = 'JVBERi0xLjcKJSVFT0YK';
    const imageLabel = '[file attached: /attachments/shot.png (image/png, 16 bytes)]';
    const pdfLabel = '[file attached: /attachments/report.pdf (application/pdf, 15 bytes)]';
    adapter.answer({ text: 'A chart and a report.' });

    await adapter.provider().complete(
      requestFor(adapter, {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What are these?' },
              { type: 'text', text: imageLabel },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
              { type: 'text', text: pdfLabel },
              { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
            ],
          },
        ],
      }),
    );

    const expected: Record<string, unknown> = {
      openai: [
        { type: 'text', text: 'What are these?' },
        { type: 'text', text: imageLabel },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        { type: 'text', text: pdfLabel },
        { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
      ],
      anthropic: [
        { type: 'text', text: 'What are these?' },
        { type: 'text', text: imageLabel },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'text', text: pdfLabel },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
      ],
      google: [
        { text: 'What are these?' },
        { text: imageLabel },
        { inlineData: { mimeType: 'image/png', data: png } },
        { text: pdfLabel },
        { inlineData: { mimeType: 'application/pdf', data: pdf } },
      ],
      'workers-ai': [
        { type: 'text', text: 'What are these?' },
        { type: 'text', text: imageLabel },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        { type: 'text', text: pdfLabel },
        { type: 'text', text: '[file attached: report.pdf — this model cannot read it; read it with a tool]' },
      ],
    };
    expect(adapter.userTurnSent(0)).toEqual(expected[adapter.name]);
    expect(JSON.stringify(adapter.userTurnSent(0)).includes(pdf)).toBe(adapter.name !== 'workers-ai');
  });

  it('MSG-10: a user turn of text and notes only reaches the vendor as text', async () => {
    const note = '[file attached: /attachments/shot.png (image/png, 16 bytes) — read it with a tool]';
    adapter.answer({ text: 'I will read it.' });

    await adapter.provider().complete(
      requestFor(adapter, {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'text', text: note },
            ],
          },
        ],
      }),
    );

    const expected: Record<string, unknown> = {
      openai: [
        { type: 'text', text: 'What is this?' },
        { type: 'text', text: note },
      ],
      anthropic: [
        { type: 'text', text: 'What is this?' },
        { type: 'text', text: note },
      ],
      google: [{ text: 'What is this?' }, { text: note }],
      // Workers AI's text models take a string.
      'workers-ai': `What is this?\n\n${note}`,
    };
    expect(adapter.userTurnSent(0)).toEqual(expected[adapter.name]);
  });
});

describe.each(ADAPTERS)('$name provider: failures and retries', (adapter) => {
  lifecycle(adapter);
  const request = () => requestFor(adapter);

  it.each([
    400, 403,
  ] as const)('THR-4: an error body with status %s fails at once as a ProviderError quoting the vendor', async (status) => {
    adapter.fail(status, 'The request is not acceptable.');
    adapter.answer({ text: 'never' });
    const { delays, sleep } = recordingSleep();

    const error = await failure(adapter.provider({ sleep }).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    const providerError = error as ProviderError;
    expect(providerError.message).toBe(adapter.failureMessage(status, 'The request is not acceptable.'));
    expect(providerError.status).toBe(status);
    expect(providerError.retryable).toBe(false);
    expect(adapter.calls()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('THR-4: retries 429 and 503 after the wait the server asked for (Retry-After), else after a backoff', async () => {
    adapter.fail(429, 'Slow down.', 2);
    adapter.fail(503, 'Overloaded.', 0);
    adapter.answer({ text: 'after the wait' });
    const { delays, sleep } = recordingSleep();

    const { value: response, spans } = await traced(() =>
      adapter.provider({ sleep, baseDelayMs: 100, maxDelayMs: 8000 }).complete(request()),
    );

    expect(response.text).toBe('after the wait');
    expect(adapter.calls()).toBe(3);
    // TRACE-1: each wait before another attempt is a failed `retry` span naming what the attempt met.
    const retries = spans.filter((span) => span.name === 'retry');
    expect(retries.map((span) => [span.attributes['standard_agents.retry.attempt'], span.status])).toEqual([
      [1, 'error'],
      [2, 'error'],
    ]);
    // The attempt's HTTP status names the failure; the Workers AI binding does not say a 503's.
    expect(retries.map((span) => span.attributes['error.type'])).toEqual(
      adapter.name === 'workers-ai' ? ['429', 'network'] : ['429', '503'],
    );
    if (adapter.asksForWaits) {
      // A wait of zero is a wait the server asked for, not a missing one.
      expect(delays).toEqual([2000, 0]);
    } else {
      // The binding cannot ask: equal-jitter backoff, 50–100 ms and then 100–200 ms.
      expect(delays).toHaveLength(2);
      expect(delays[0]).toBeGreaterThanOrEqual(50);
      expect(delays[0]).toBeLessThanOrEqual(100);
      expect(delays[1]).toBeGreaterThanOrEqual(100);
      expect(delays[1]).toBeLessThanOrEqual(200);
    }
  });

  it('THR-4: gives up after maxRetries with the last failure, its status, and the attempts made', async () => {
    adapter.fail(503, 'Overloaded.');
    adapter.fail(429, 'Slow down.');
    adapter.fail(429, 'Still too fast.');
    adapter.answer({ text: 'never reached' });
    const { delays, sleep } = recordingSleep();

    const error = await failure(adapter.provider({ sleep, maxRetries: 2 }).complete(request()));

    expect(error).toBeInstanceOf(ProviderError);
    const providerError = error as ProviderError;
    expect(providerError.message).toBe(`${adapter.failureMessage(429, 'Still too fast.')} (gave up after 3 attempts)`);
    expect(providerError.status).toBe(429);
    expect(providerError.retryable).toBe(true);
    expect(adapter.calls()).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it('THR-4: retries a stream that fails before its first byte', async () => {
    adapter.answer({ text: 'second try' });
    let cut = 0;
    const failsAtOnce = () => {
      cut++;
      return pieceStream([], 'fail');
    };

    const response = await adapter.provider({}, [failsAtOnce]).complete(request());

    expect(response.text).toBe('second try');
    expect(cut).toBe(1);
    expect(adapter.calls()).toBe(1);
  });

  it('THR-4: never retries once text has streamed, so no delta is sent twice', async () => {
    const opening = throughText(adapter.frames({ text: 'partial answer', chunkSize: 4 }), 'part');
    adapter.answer({ text: 'never' });
    const { deltas, onTextDelta } = deltasOf();
    let cut = 0;
    const failsAfterText = () => {
      cut++;
      return pieceStream(opening, 'fail');
    };

    const error = await failure(adapter.provider({}, [failsAfterText]).complete(request(), { onTextDelta }));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      `${adapter.errorName}: the connection failed while streaming: terminated`,
    );
    expect(deltas).toEqual(['part']);
    expect(cut).toBe(1);
    expect(adapter.calls()).toBe(0);
  });
});

describe.each(ADAPTERS)('$name provider: abort', (adapter) => {
  lifecycle(adapter);
  const request = (signal: AbortSignal) => requestFor(adapter, { signal });

  it('THR-4: aborting mid-stream rejects at once with an AbortError and cuts the stream off', async () => {
    adapter.answer({ text: 'one two three four five six', chunkSize: 4, stallAfterDeltas: 2 });
    const controller = new AbortController();
    const deltas: string[] = [];

    const pending = adapter.provider().complete(request(controller.signal), {
      onTextDelta(delta) {
        deltas.push(delta);
        // The server sends two deltas, then stalls: abort while the read waits.
        if (deltas.length === 2) setTimeout(() => controller.abort(), 0);
      },
    });
    const error = await within(failure(pending), PROMPT_GUARD_MS);

    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(deltas).toEqual(['one ', 'two ']);
    await vi.waitFor(() => expect(adapter.closedEarly(0)).toBe(true));
  });

  it("THR-4: an abort rejects with the signal's reason", async () => {
    adapter.answer({ text: 'abcdefgh', chunkSize: 4, stallAfterDeltas: 1 });
    const controller = new AbortController();
    const reason = new Error('thread stopped');

    const pending = adapter.provider().complete(request(controller.signal), {
      onTextDelta: () => setTimeout(() => controller.abort(reason), 0),
    });

    expect(await within(failure(pending), PROMPT_GUARD_MS)).toBe(reason);
  });

  it('THR-4: an abort interrupts a stalled stream even when the transport ignores the signal', async () => {
    const opening = throughText(adapter.frames({ text: 'first' }), 'firs');
    const controller = new AbortController();

    const pending = adapter
      .provider({}, [() => pieceStream(opening, 'stall')])
      .complete(request(controller.signal), { onTextDelta: () => setTimeout(() => controller.abort(), 0) });

    expect(((await within(failure(pending), PROMPT_GUARD_MS)) as DOMException).name).toBe('AbortError');
  });

  it('THR-4: aborting during a backoff rejects at once and never retries', async () => {
    adapter.fail(503, 'Overloaded.');
    adapter.answer({ text: 'too late' });
    const controller = new AbortController();
    const reason = new Error('thread stopped');
    const sleep: Sleep = (ms, signal) => {
      controller.abort(reason);
      return realSleep(ms, signal);
    };

    const pending = adapter
      .provider({ sleep, baseDelayMs: 60_000, maxDelayMs: 60_000 })
      .complete(request(controller.signal));

    expect(await within(failure(pending), PROMPT_GUARD_MS)).toBe(reason);
    expect(adapter.calls()).toBe(1);
  });

  it('THR-4: an injected sleep that ignores the signal still cannot delay an abort', async () => {
    adapter.fail(429, 'Slow down.', 60);
    adapter.answer({ text: 'too late' });
    const controller = new AbortController();
    const sleep: Sleep = () => {
      controller.abort();
      return new Promise(() => {});
    };

    const pending = adapter.provider({ sleep, maxDelayMs: 60_000 }).complete(request(controller.signal));

    expect(((await within(failure(pending), PROMPT_GUARD_MS)) as DOMException).name).toBe('AbortError');
    expect(adapter.calls()).toBe(1);
  });

  it('THR-4: an already aborted signal never reaches the server', async () => {
    const controller = new AbortController();
    controller.abort();

    const error = await failure(adapter.provider().complete(request(controller.signal)));

    expect((error as DOMException).name).toBe('AbortError');
    expect(adapter.calls()).toBe(0);
  });
});
