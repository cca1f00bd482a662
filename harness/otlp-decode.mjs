/**
 * OTLP trace export requests read back into plain objects, for the tests and the bench: the protobuf
 * wire format decoded by hand (the small fixed part of `ExportTraceServiceRequest` a span exporter
 * sends: resource attributes, scope, spans with their attributes, events and status) and the
 * OTLP/JSON form. Written independently of the encoder under test, so a test compares the exporter
 * with the specification rather than with itself. No Node modules: it also runs in workerd.
 * Types are in otlp-decode.d.mts.
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A reader over one protobuf message's bytes. */
class Reader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
  }

  atEnd() {
    return this.pos >= this.bytes.length;
  }

  /** A varint as a bigint (int64 values are ten bytes when negative). */
  varint() {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.bytes.length) throw new Error('truncated varint');
      const byte = this.bytes[this.pos++];
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
    throw new Error('varint longer than ten bytes');
  }

  need(length) {
    if (this.pos + length > this.bytes.length) throw new Error('truncated field');
  }

  fixed64() {
    this.need(8);
    const value = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return value;
  }

  double() {
    this.need(8);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  bytesField() {
    const length = Number(this.varint());
    this.need(length);
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }

  string() {
    return decoder.decode(this.bytesField());
  }

  /** The next field's number and wire type. */
  tag() {
    const key = Number(this.varint());
    return { field: key >>> 3, wire: key & 7 };
  }

  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytesField();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
    if (this.pos > this.bytes.length) throw new Error('truncated field');
  }
}

/**
 * Calls `onField(field, wire, reader)` for each field of a message; `onField` returns false for a
 * field it does not read, which is skipped.
 */
function eachField(bytes, onField) {
  const reader = new Reader(bytes);
  while (!reader.atEnd()) {
    const { field, wire } = reader.tag();
    if (!onField(field, wire, reader)) reader.skip(wire);
  }
}

const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** An int64 as a number when it is safe, else as a bigint. */
function int64(unsigned) {
  const signed = BigInt.asIntN(64, unsigned);
  return signed >= BigInt(Number.MIN_SAFE_INTEGER) && signed <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(signed)
    : signed;
}

function protoAnyValue(bytes) {
  /** @type {unknown} */
  let value = null;
  eachField(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) value = reader.string();
    else if (field === 2 && wire === 0) value = reader.varint() !== 0n;
    else if (field === 3 && wire === 0) value = int64(reader.varint());
    else if (field === 4 && wire === 1) value = reader.double();
    else if (field === 5 && wire === 2) {
      const values = [];
      eachField(reader.bytesField(), (f, w, inner) => {
        if (f !== 1 || w !== 2) return false;
        values.push(protoAnyValue(inner.bytesField()));
        return true;
      });
      value = values;
    } else if (field === 6 && wire === 2) value = protoAttributes(reader.bytesField(), 1);
    else if (field === 7 && wire === 2) value = Uint8Array.from(reader.bytesField());
    else return false;
    return true;
  });
  return value;
}

/** The KeyValue entries under `field` of a message, as one object. */
function protoAttributes(bytes, field) {
  /** @type {Record<string, unknown>} */
  const attributes = {};
  eachField(bytes, (f, wire, reader) => {
    if (f !== field || wire !== 2) return false;
    let key = '';
    let value = null;
    eachField(reader.bytesField(), (kf, kw, inner) => {
      if (kf === 1 && kw === 2) key = inner.string();
      else if (kf === 2 && kw === 2) value = protoAnyValue(inner.bytesField());
      else return false;
      return true;
    });
    attributes[key] = value;
    return true;
  });
  return attributes;
}

function protoEvent(bytes) {
  const event = { name: '', timeNs: 0n, attributes: protoAttributes(bytes, 3) };
  eachField(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 1) event.timeNs = reader.fixed64();
    else if (field === 2 && wire === 2) event.name = reader.string();
    else return false;
    return true;
  });
  return event;
}

function protoStatus(bytes) {
  const status = { code: 0, message: '' };
  eachField(bytes, (field, wire, reader) => {
    if (field === 2 && wire === 2) status.message = reader.string();
    else if (field === 3 && wire === 0) status.code = Number(reader.varint());
    else return false;
    return true;
  });
  return status;
}

function protoSpan(bytes, resource, scope) {
  const span = {
    traceId: '',
    spanId: '',
    parentSpanId: /** @type {string | null} */ (null),
    name: '',
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: protoAttributes(bytes, 9),
    events: /** @type {ReturnType<typeof protoEvent>[]} */ ([]),
    status: { code: 0, message: '' },
    resource,
    scope,
  };
  eachField(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) span.traceId = hex(reader.bytesField());
    else if (field === 2 && wire === 2) span.spanId = hex(reader.bytesField());
    else if (field === 4 && wire === 2) span.parentSpanId = hex(reader.bytesField()) || null;
    else if (field === 5 && wire === 2) span.name = reader.string();
    else if (field === 6 && wire === 0) span.kind = Number(reader.varint());
    else if (field === 7 && wire === 1) span.startNs = reader.fixed64();
    else if (field === 8 && wire === 1) span.endNs = reader.fixed64();
    else if (field === 11 && wire === 2) span.events.push(protoEvent(reader.bytesField()));
    else if (field === 15 && wire === 2) span.status = protoStatus(reader.bytesField());
    else return false;
    return true;
  });
  return span;
}

function protoScope(bytes) {
  const scope = { name: '', version: '' };
  eachField(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) scope.name = reader.string();
    else if (field === 2 && wire === 2) scope.version = reader.string();
    else return false;
    return true;
  });
  return scope;
}

function protoScopeSpans(bytes, resource, spans) {
  let scope = { name: '', version: '' };
  // The scope may follow its spans on the wire: read it first.
  eachField(bytes, (field, wire, reader) => {
    if (field !== 1 || wire !== 2) return false;
    scope = protoScope(reader.bytesField());
    return true;
  });
  eachField(bytes, (field, wire, reader) => {
    if (field !== 2 || wire !== 2) return false;
    spans.push(protoSpan(reader.bytesField(), resource, scope));
    return true;
  });
}

function protoResourceSpans(bytes, spans) {
  /** @type {Record<string, unknown>} */
  let resource = {};
  eachField(bytes, (field, wire, reader) => {
    if (field !== 1 || wire !== 2) return false;
    resource = protoAttributes(reader.bytesField(), 1);
    return true;
  });
  eachField(bytes, (field, wire, reader) => {
    if (field !== 2 || wire !== 2) return false;
    protoScopeSpans(reader.bytesField(), resource, spans);
    return true;
  });
}

/**
 * The spans of a protobuf `ExportTraceServiceRequest`; throws on bytes that are not one.
 * @param {Uint8Array} bytes
 */
export function decodeProtobufTraces(bytes) {
  const spans = [];
  eachField(bytes, (field, wire, reader) => {
    if (field !== 1 || wire !== 2) return false;
    protoResourceSpans(reader.bytesField(), spans);
    return true;
  });
  return spans;
}

function jsonAnyValue(value) {
  if (value === null || typeof value !== 'object') return null;
  if ('stringValue' in value) return String(value.stringValue);
  if ('boolValue' in value) return Boolean(value.boolValue);
  if ('intValue' in value) return int64(BigInt.asUintN(64, BigInt(value.intValue)));
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) return (value.arrayValue?.values ?? []).map(jsonAnyValue);
  if ('kvlistValue' in value) return jsonAttributes(value.kvlistValue?.values);
  if ('bytesValue' in value) return value.bytesValue;
  return null;
}

function jsonAttributes(list) {
  /** @type {Record<string, unknown>} */
  const attributes = {};
  for (const entry of Array.isArray(list) ? list : []) attributes[String(entry.key)] = jsonAnyValue(entry.value);
  return attributes;
}

function jsonSpan(span, resource, scope) {
  return {
    traceId: String(span.traceId ?? '').toLowerCase(),
    spanId: String(span.spanId ?? '').toLowerCase(),
    parentSpanId: span.parentSpanId ? String(span.parentSpanId).toLowerCase() : null,
    name: String(span.name ?? ''),
    kind: Number(span.kind ?? 0),
    startNs: BigInt(span.startTimeUnixNano ?? 0),
    endNs: BigInt(span.endTimeUnixNano ?? 0),
    attributes: jsonAttributes(span.attributes),
    events: (span.events ?? []).map((event) => ({
      name: String(event.name ?? ''),
      timeNs: BigInt(event.timeUnixNano ?? 0),
      attributes: jsonAttributes(event.attributes),
    })),
    status: { code: Number(span.status?.code ?? 0), message: String(span.status?.message ?? '') },
    resource,
    scope,
  };
}

/**
 * The spans of an OTLP/JSON `ExportTraceServiceRequest`; throws on text that is not JSON.
 * @param {string} text
 */
export function decodeJsonTraces(text) {
  const request = JSON.parse(text);
  const spans = [];
  for (const resourceSpans of request?.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      const scope = { name: String(scopeSpans.scope?.name ?? ''), version: String(scopeSpans.scope?.version ?? '') };
      for (const span of scopeSpans.spans ?? []) spans.push(jsonSpan(span, resource, scope));
    }
  }
  return spans;
}
