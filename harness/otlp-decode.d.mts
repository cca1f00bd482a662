/**
 * Types for otlp-decode.mjs, which reads OTLP trace export requests (protobuf or JSON) back into
 * plain objects. Kept free of Node types so any tsconfig can use it.
 */

/** An attribute's value as OTLP carries it; an int64 beyond 2^53 stays a bigint. */
export type ReceivedValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | Uint8Array
  | ReceivedValue[]
  | { [key: string]: ReceivedValue };

export interface ReceivedEvent {
  name: string;
  timeNs: bigint;
  attributes: Record<string, ReceivedValue>;
}

export interface ReceivedSpan {
  /** Lowercase hex. */
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, ReceivedValue>;
  events: ReceivedEvent[];
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The attributes of the span's resource (`service.name`, `telemetry.sdk.*`). */
  resource: Record<string, ReceivedValue>;
  scope: { name: string; version: string };
}

export function decodeProtobufTraces(bytes: Uint8Array): ReceivedSpan[];
export function decodeJsonTraces(text: string): ReceivedSpan[];
