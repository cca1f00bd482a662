/**
 * The OTLP/HTTP span exporter against a local collector (harness/otlp-receiver.mjs), which decodes
 * what it receives on its own: spans arrive with their names, ids, parents, attributes of every
 * type, status, events and resource, as protobuf and as JSON, with the configured headers, at most
 * 512 to a request; the queue keeps the newest 2,048 and says how many it dropped; a collector that
 * is closed, answers 500 or 400, redirects or never answers costs a log line and nothing else. And
 * the settings as read from the `OTEL_*` variables.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../../../harness/otlp-receiver.mjs';
import type { FinishedSpan } from '../../../../src/engine/tracing/index.js';
import {
  MAX_QUEUED_SPANS,
  MAX_SPANS_PER_REQUEST,
  type OtlpSettings,
  otlpSettings,
  spanExporter,
} from '../../../../src/thread/tracing/index.js';
import { HOSTILE_OTLP_ENDPOINTS, HOSTILE_OTLP_HEADER_ENTRIES } from '../../../support/hostile-corpus.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TURN = '00f067aa0ba902b7';
const CHAT = 'a1b2c3d4e5f60718';
// An epoch time with a fraction of a millisecond, as performance-based clocks give.
const T0 = 1_764_230_400_123.5;

function spanId(n: number): string {
  return (n + 1).toString(16).padStart(16, '0');
}

function finished(overrides: Partial<FinishedSpan> = {}): FinishedSpan {
  return {
    traceId: TRACE,
    spanId: TURN,
    parentSpanId: null,
    name: 'invoke_agent assistant',
    kind: 'internal',
    startMs: T0,
    endMs: T0 + 250,
    status: 'unset',
    attributes: {},
    events: [],
    ...overrides,
  };
}

/** A turn and its model step, with an attribute of every type the runtime records. */
function turnAndStep(): FinishedSpan[] {
  return [
    finished({
      status: 'ok',
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'assistant' },
    }),
    finished({
      spanId: CHAT,
      parentSpanId: TURN,
      name: 'chat gpt-4o',
      kind: 'client',
      startMs: T0 + 10,
      endMs: T0 + 200.25,
      status: 'error',
      statusMessage: 'the provider answered 500',
      attributes: {
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 1200,
        'standard_agents.offset': -3,
        'standard_agents.cost_usd': 0.0125,
        'standard_agents.streamed': true,
        'gen_ai.response.finish_reasons': ['stop', 'length'],
      },
      events: [{ name: 'retry', timeMs: T0 + 50, attributes: { attempt: 2, reason: 'rate limited' } }],
    }),
    finished({ spanId: spanId(40), parentSpanId: TURN, name: 'execute_tool search', kind: 'server' }),
  ];
}

let receiver: OtlpReceiver;
let made = 0;

/** Settings for a fresh exporter (exporters are kept per settings: a new service name, a new one). */
function settings(overrides: Partial<OtlpSettings> = {}): OtlpSettings {
  made++;
  return {
    endpoint: receiver.endpoint,
    headers: {},
    serviceName: `agents-test-${made}`,
    protocol: 'http/protobuf',
    timeoutMs: 5_000,
    ...overrides,
  };
}

function warnings() {
  return vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}

function lines(spy: ReturnType<typeof warnings>): string[] {
  return spy.mock.calls.map((call) => String(call[0]));
}

/** Epoch milliseconds in nanoseconds, exactly (`ms * 1e6` as a double would round). */
const ns = (ms: number) => BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1e6));

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver.close();
});

afterEach(() => {
  receiver.answerWith('ok');
  vi.restoreAllMocks();
});

describe.each(['http/protobuf', 'http/json'] as const)('spans sent as %s', (protocol) => {
  it('arrive with their names, ids, parents, kinds, times, attributes, status, events and resource', async () => {
    const config = settings({ protocol });
    const exporter = spanExporter(config);
    const before = receiver.spans().length;
    for (const span of turnAndStep()) exporter.record(span);
    await exporter.flush();
    const got = receiver.spans().slice(before);
    expect(got.map((span) => span.name)).toEqual(['invoke_agent assistant', 'chat gpt-4o', 'execute_tool search']);
    const [turn, chat, tool] = got as [ReceivedSpan, ReceivedSpan, ReceivedSpan];
    expect(turn).toMatchObject({ traceId: TRACE, spanId: TURN, parentSpanId: null, kind: 1, status: { code: 1 } });
    expect(turn.startNs).toBe(ns(T0));
    expect(turn.endNs).toBe(ns(T0 + 250));
    expect(chat).toMatchObject({ traceId: TRACE, spanId: CHAT, parentSpanId: TURN, kind: 3 });
    expect(chat.status).toEqual({ code: 2, message: 'the provider answered 500' });
    expect(chat.endNs).toBe(ns(T0 + 200.25));
    expect(chat.attributes).toEqual({
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 1200,
      'standard_agents.offset': -3,
      'standard_agents.cost_usd': 0.0125,
      'standard_agents.streamed': true,
      'gen_ai.response.finish_reasons': ['stop', 'length'],
    });
    expect(chat.events).toEqual([
      { name: 'retry', timeNs: ns(T0 + 50), attributes: { attempt: 2, reason: 'rate limited' } },
    ]);
    expect(tool).toMatchObject({ kind: 2, parentSpanId: TURN, status: { code: 0 } });
    expect(turn.resource).toMatchObject({
      'service.name': config.serviceName,
      'telemetry.sdk.name': 'standard-agents-cloudflare',
      'telemetry.sdk.language': 'webjs',
    });
    expect(turn.scope.name).toBe('standard-agents-cloudflare');
  });

  it('carry the configured headers and the content type of the protocol', async () => {
    const exporter = spanExporter(
      settings({ protocol, headers: { authorization: 'Bearer collector-key', 'x-scope': 'team a=b' } }),
    );
    exporter.record(finished());
    await exporter.flush();
    const request = receiver.received().at(-1);
    expect(request?.headers).toMatchObject({ authorization: 'Bearer collector-key', 'x-scope': 'team a=b' });
    expect(request?.contentType).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
    expect(request?.status).toBe(200);
  });
});

describe('batches and the queue', () => {
  it(`sends at most ${MAX_SPANS_PER_REQUEST} spans to a request`, async () => {
    const exporter = spanExporter(settings());
    const before = receiver.requests;
    for (let n = 0; n < 1200; n++) exporter.record(finished({ spanId: spanId(n), name: `span ${n}` }));
    await exporter.flush();
    const requests = receiver.received().slice(before);
    expect(requests.map((request) => request.spans).sort((a, b) => b - a)).toEqual([512, 512, 176]);
    const names = new Set(receiver.spans().map((span) => span.name));
    for (let n = 0; n < 1200; n++) expect(names.has(`span ${n}`)).toBe(true);
  });

  it(`keeps the newest ${MAX_QUEUED_SPANS} spans, counts the dropped ones and logs the count once`, async () => {
    const spy = warnings();
    const config = settings();
    const exporter = spanExporter(config);
    for (let n = 0; n < MAX_QUEUED_SPANS + 100; n++) exporter.record(finished({ spanId: spanId(n), name: `q${n}` }));
    expect(exporter.dropped).toBe(100);
    await exporter.flush();
    const got = receiver.spans().filter((span) => span.resource['service.name'] === config.serviceName);
    expect(got).toHaveLength(MAX_QUEUED_SPANS);
    const names = new Set(got.map((span) => span.name));
    expect(names.has('q99')).toBe(false);
    expect(names.has('q100')).toBe(true);
    expect(names.has(`q${MAX_QUEUED_SPANS + 99}`)).toBe(true);
    expect(lines(spy).filter((line) => line.includes('100 oldest dropped'))).toHaveLength(1);
    // The next flush has nothing new to say about drops.
    exporter.record(finished());
    await exporter.flush();
    expect(lines(spy).filter((line) => line.includes('dropped'))).toHaveLength(1);
    expect(exporter.dropped).toBe(100);
  });

  it('is the same exporter for the same settings, whatever the order of the headers', () => {
    const config = settings({ headers: { a: '1', b: '2' } });
    expect(spanExporter({ ...config, headers: { b: '2', a: '1' } })).toBe(spanExporter(config));
    expect(spanExporter({ ...config, timeoutMs: 1 })).not.toBe(spanExporter(config));
  });

  it('leaves out a span whose ids OTLP cannot carry, and sends the rest', async () => {
    const spy = warnings();
    const config = settings();
    const exporter = spanExporter(config);
    exporter.record(finished({ traceId: 'not-hex', name: 'bad trace id' }));
    exporter.record(finished({ spanId: '0000000000000000', name: 'zero span id' }));
    exporter.record(finished({ name: 'good' }));
    await exporter.flush();
    const got = receiver.spans().filter((span) => span.resource['service.name'] === config.serviceName);
    expect(got.map((span) => span.name)).toEqual(['good']);
    expect(lines(spy).some((line) => line.includes('2 spans with malformed ids or times left out'))).toBe(true);
  });
});

describe('a collector that fails costs one log line', () => {
  async function flushFailing(config: OtlpSettings): Promise<string[]> {
    const spy = warnings();
    const exporter = spanExporter(config);
    for (const span of turnAndStep()) exporter.record(span);
    await expect(exporter.flush()).resolves.toBeUndefined();
    return lines(spy);
  }

  it.each([
    '500',
    '400',
  ] as const)('answering %s: flush resolves, the spans are lost, the log says so', async (status) => {
    receiver.answerWith(status);
    const logged = await flushFailing(settings());
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(
      `span export to ${receiver.endpoint}: failed, the collector answered ${status}; 3 spans lost`,
    );
  });

  it('redirecting: the redirect is not followed', async () => {
    receiver.answerWith('redirect');
    const before = receiver.requests;
    const logged = await flushFailing(settings());
    expect(receiver.requests - before).toBe(1);
    expect(logged[0]).toContain('answered 307 (redirects are not followed); 3 spans lost');
  });

  it('never answering: the request is cut at the timeout and flush resolves', async () => {
    receiver.answerWith('hang');
    const before = receiver.requests;
    const logged = await flushFailing(settings({ timeoutMs: 300 }));
    expect(receiver.requests - before).toBe(1);
    expect(logged[0]).toContain('failed, no answer within 300 ms; 3 spans lost');
  });

  it('closed: flush resolves and the log names the endpoint without its query', async () => {
    const closed = await startOtlpReceiver();
    await closed.close();
    const logged = await flushFailing(settings({ endpoint: `${closed.endpoint}?token=secret` }));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`span export to ${closed.endpoint}: failed,`);
    expect(logged[0]).toContain('3 spans lost');
    expect(logged[0]).not.toContain('secret');
  });

  it('refusing the request before it is sent: the log does not quote the URL fetch refused', async () => {
    const endpoint = `${receiver.url.replace('http://', 'http://user:secret@')}/v1/traces?token=secret`;
    const before = receiver.requests;
    const logged = await flushFailing(settings({ endpoint }));
    expect(receiver.requests - before).toBe(0);
    expect(logged[0]).toContain(`span export to ${receiver.endpoint}: failed,`);
    expect(logged[0]).not.toContain('secret');
  });

  it('a failed flush leaves the exporter working for the next one', async () => {
    const config = settings();
    const exporter = spanExporter(config);
    warnings();
    receiver.answerWith('500');
    exporter.record(finished({ name: 'lost' }));
    await exporter.flush();
    receiver.answerWith('ok');
    exporter.record(finished({ name: 'kept' }));
    await exporter.flush();
    const got = receiver.spans().filter((span) => span.resource['service.name'] === config.serviceName);
    expect(got.map((span) => span.name)).toEqual(['kept']);
  });
});

describe('settings from the OTEL_* variables', () => {
  it('are off without an endpoint, and when the SDK is disabled', () => {
    expect(otlpSettings({})).toBeNull();
    for (const disabled of ['true', 'TRUE', ' True '])
      expect(
        otlpSettings({ OTEL_SDK_DISABLED: disabled, OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test' }),
      ).toBeNull();
    expect(
      otlpSettings({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test' }),
    ).not.toBeNull();
  });

  it('take the traces endpoint as it is, and append /v1/traces to the base endpoint', () => {
    const endpoint = (env: Record<string, unknown>) => otlpSettings(env)?.endpoint;
    expect(endpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test' })).toBe(
      'https://collector.test/v1/traces',
    );
    expect(endpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test/otlp/' })).toBe(
      'https://collector.test/otlp/v1/traces',
    );
    expect(
      endpoint({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.test/custom/path',
      }),
    ).toBe('https://traces.test/custom/path');
  });

  it('ignore an endpoint that is not an http(s) URL, with a warning that does not repeat it', () => {
    const spy = warnings();
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:pw@collector.test' })).toBeNull();
    expect(
      otlpSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test',
      })?.endpoint,
    ).toBe('https://collector.test/v1/traces');
    // A user and password are never sent (fetch refuses them): they are dropped with a warning.
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:pw@collector.test' })?.endpoint).toBe(
      'https://collector.test/v1/traces',
    );
    const logged = lines(spy);
    expect(logged).toHaveLength(3);
    expect(logged[2]).toContain('holds a user or password, which is not sent');
    expect(logged.join('\n')).not.toContain('pw');
  });

  it('read the headers as name=value pairs with URL-encoded values, leaving out what cannot be sent', () => {
    const spy = warnings();
    const headers = otlpSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test',
      OTEL_EXPORTER_OTLP_HEADERS:
        'Authorization=Basic%20dXNlcjpwYXNz, x-team = a%3Db%2Cc ,,no-equals,bad name=v,x-split=a%0D%0Ainjected:1,x-bad=%E0%A4%A,x-empty=',
    })?.headers;
    expect(headers).toEqual({ authorization: 'Basic dXNlcjpwYXNz', 'x-team': 'a=b,c', 'x-empty': '' });
    const logged = lines(spy).join('\n');
    expect(logged).toContain('entry 4');
    expect(logged).toContain('entry 5');
    expect(logged).toContain('entry 6');
    expect(logged).toContain('entry 7');
    expect(logged).not.toContain('injected');
  });

  it.each(HOSTILE_OTLP_HEADER_ENTRIES)('leave out the header entry %j, keep the others, log no value', (entry) => {
    const spy = warnings();
    const headers = otlpSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20k,${entry},x-after=1`,
    })?.headers;
    expect(headers).toEqual({ authorization: 'Bearer k', 'x-after': '1' });
    expect(lines(spy).join('\n')).not.toContain('secret');
  });

  it.each(HOSTILE_OTLP_ENDPOINTS)('send nowhere for the endpoint %j, and log no part of it', (url) => {
    const spy = warnings();
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: url })).toBeNull();
    expect(otlpSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url })).toBeNull();
    expect(lines(spy).join('\n')).not.toContain('secret');
  });

  it('take the service name, the protocol and the timeout, and fall back to defaults on bad values', () => {
    const spy = warnings();
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.test' };
    expect(otlpSettings(base)).toEqual({
      endpoint: 'https://collector.test/v1/traces',
      headers: {},
      serviceName: 'standard-agents',
      protocol: 'http/protobuf',
      timeoutMs: 10_000,
    });
    expect(
      otlpSettings({
        ...base,
        OTEL_SERVICE_NAME: 'support-bot',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
      }),
    ).toMatchObject({ serviceName: 'support-bot', protocol: 'http/json', timeoutMs: 2500 });
    expect(otlpSettings({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })?.protocol).toBe('http/protobuf');
    for (const timeout of ['abc', '-5', '0', '1e3'])
      expect(otlpSettings({ ...base, OTEL_EXPORTER_OTLP_TIMEOUT: timeout })?.timeoutMs).toBe(10_000);
    // A binding that is not a string is not a setting.
    expect(otlpSettings({ ...base, OTEL_SERVICE_NAME: { name: 'x' } })?.serviceName).toBe('standard-agents');
    const logged = lines(spy);
    expect(logged.filter((line) => line.includes('OTEL_EXPORTER_OTLP_PROTOCOL "grpc"'))).toHaveLength(1);
    expect(logged.filter((line) => line.includes('OTEL_EXPORTER_OTLP_TIMEOUT'))).toHaveLength(4);
  });
});
