/**
 * Finished spans encoded as one OTLP `ExportTraceServiceRequest`, protobuf or JSON, by
 * `@opentelemetry/otlp-transformer`. The package is loaded on first use: an isolate that exports
 * nothing never evaluates it.
 */
import type { FinishedSpan } from '../../engine/tracing/index.js';
import type { OtlpProtocol } from './otlp-settings.js';
import { otlpResource, otlpScope, type ReadableSpan, readableSpan } from './otlp-spans.js';

/** What an encoding needs besides the spans; one per exporter, since the encoder groups by identity. */
export interface SpanEncoding {
  protocol: OtlpProtocol;
  resource: ReadableSpan['resource'];
  scope: ReadableSpan['instrumentationScope'];
}

interface Serializer {
  serializeRequest(spans: ReadableSpan[]): Uint8Array | undefined;
}

type Transformer = typeof import('@opentelemetry/otlp-transformer');

let transformer: Promise<Transformer> | null = null;

async function serializerFor(protocol: OtlpProtocol): Promise<Serializer> {
  transformer ??= import('@opentelemetry/otlp-transformer');
  const loaded = await transformer.catch((error: unknown) => {
    transformer = null;
    throw error;
  });
  return protocol === 'http/json' ? loaded.JsonTraceSerializer : loaded.ProtobufTraceSerializer;
}

export function spanEncoding(protocol: OtlpProtocol, serviceName: string): SpanEncoding {
  return { protocol, resource: otlpResource(serviceName), scope: otlpScope() };
}

/** The request body; undefined when the encoder produced none. Spans must be `exportable`. */
export async function encodeSpans(spans: FinishedSpan[], encoding: SpanEncoding): Promise<Uint8Array | undefined> {
  const serializer = await serializerFor(encoding.protocol);
  return serializer.serializeRequest(spans.map((span) => readableSpan(span, encoding.resource, encoding.scope)));
}
