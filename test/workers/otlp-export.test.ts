/**
 * The OTLP encoder (`@opentelemetry/otlp-transformer`) and the span exporter run in workerd itself,
 * not only in Node: spans become protobuf and JSON bytes that read back as the same spans, and a
 * flush to a collector that fails resolves with one log line. The Node suite
 * (test/node/thread/tracing/) covers the rest against a local OTLP receiver.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeJsonTraces, decodeProtobufTraces } from '../../harness/otlp-decode.mjs';
import type { FinishedSpan } from '../../src/engine/tracing/index.js';
import { encodeSpans, spanEncoding, spanExporter } from '../../src/thread/tracing/index.js';

const spans: FinishedSpan[] = [
  {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    parentSpanId: null,
    name: 'invoke_agent assistant',
    kind: 'internal',
    startMs: 1_764_230_400_000,
    endMs: 1_764_230_400_250,
    status: 'ok',
    attributes: { 'gen_ai.agent.name': 'assistant' },
    events: [],
  },
  {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: 'a1b2c3d4e5f60718',
    parentSpanId: '00f067aa0ba902b7',
    name: 'chat gpt-4o',
    kind: 'client',
    startMs: 1_764_230_400_010,
    endMs: 1_764_230_400_200,
    status: 'error',
    statusMessage: 'overloaded',
    attributes: { 'gen_ai.usage.input_tokens': 12, 'gen_ai.response.finish_reasons': ['stop'] },
    events: [],
  },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('OTLP export on workerd', () => {
  it('encodes spans as protobuf and as JSON that read back as the same spans', async () => {
    const protobuf = await encodeSpans(spans, spanEncoding('http/protobuf', 'agents-on-workerd'));
    expect(protobuf).toBeInstanceOf(Uint8Array);
    const json = await encodeSpans(spans, spanEncoding('http/json', 'agents-on-workerd'));
    for (const decoded of [
      decodeProtobufTraces(protobuf as Uint8Array),
      decodeJsonTraces(new TextDecoder().decode(json)),
    ]) {
      expect(decoded.map((span) => [span.name, span.spanId, span.parentSpanId, span.status.code])).toEqual([
        ['invoke_agent assistant', '00f067aa0ba902b7', null, 1],
        ['chat gpt-4o', 'a1b2c3d4e5f60718', '00f067aa0ba902b7', 2],
      ]);
      expect(decoded[1]?.attributes).toEqual({
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.response.finish_reasons': ['stop'],
      });
      expect(decoded[0]?.resource['service.name']).toBe('agents-on-workerd');
    }
  });

  it('flushes to a collector answering 503 with one log line and no error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const exporter = spanExporter({
      endpoint: `${env.SERVICES_URL}/status/503`,
      headers: { authorization: 'Bearer k' },
      serviceName: 'agents-on-workerd',
      protocol: 'http/protobuf',
      timeoutMs: 10_000,
    });
    for (const span of spans) exporter.record(span);
    await expect(exporter.flush()).resolves.toBeUndefined();
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      `[standard-agents] span export to ${env.SERVICES_URL}/status/503: failed, the collector answered 503; 2 spans lost`,
    ]);
  });
});
