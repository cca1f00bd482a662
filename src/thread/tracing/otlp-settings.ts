/**
 * Where finished spans are sent, read from the Worker's variables with the names OpenTelemetry's SDKs
 * use: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) or `OTEL_EXPORTER_OTLP_ENDPOINT` (a base,
 * `/v1/traces` appended), `OTEL_EXPORTER_OTLP_HEADERS` (`name=value,...`, values URL-encoded),
 * `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_PROTOCOL` and `OTEL_EXPORTER_OTLP_TIMEOUT`;
 * `OTEL_SDK_DISABLED=true` turns export off. A variable that cannot be used is warned about once per
 * isolate and its default taken: a typo in telemetry settings must never stop the Worker. Header
 * values are never written to the log, since they usually carry the collector's key.
 */

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpSettings {
  /** The full URL spans are POSTed to. */
  endpoint: string;
  headers: Record<string, string>;
  serviceName: string;
  protocol: OtlpProtocol;
  timeoutMs: number;
}

export const DEFAULT_SERVICE_NAME = 'standard-agents';
export const DEFAULT_TIMEOUT_MS = 10_000;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header value fetch accepts: tabs and printable Latin-1, so no line break can split the header.
const SENDABLE_VALUE = /^[\t -~\u0080-\u00ff]*$/;

const warned = new Set<string>();

/** Each distinct warning once per isolate: settings are read on every turn. */
function warnOnce(line: string): void {
  if (warned.has(line)) return;
  warned.add(line);
  console.warn(`[standard-agents] ${line}`);
}

function text(env: Record<string, unknown>, name: string): string | undefined {
  const value = env[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An http(s) URL, without the user and password fetch would refuse to send (and a log could show). */
function httpUrl(value: string, name: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') {
    warnOnce(`${name} holds a user or password, which is not sent; put credentials in OTEL_EXPORTER_OTLP_HEADERS`);
    url.username = '';
    url.password = '';
  }
  return url;
}

function tracesEndpoint(env: Record<string, unknown>): string | null {
  const full = text(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (full !== undefined) {
    const url = httpUrl(full, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    if (url) return url.href;
    warnOnce('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not an http(s) URL; it is ignored');
  }
  const base = text(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (base === undefined) return null;
  const url = httpUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!url) {
    warnOnce('OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL; spans are not exported');
    return null;
  }
  // The base's path is kept: `https://host/otlp` sends to `https://host/otlp/v1/traces`.
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.href;
}

function decoded(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** `name=value,name2=value2`, each value URL-decoded; an entry that cannot be sent is left out. */
export function parseHeaders(list: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (list === undefined) return headers;
  for (const [index, entry] of list.split(',').entries()) {
    if (entry.trim() === '') continue;
    const equals = entry.indexOf('=');
    const name = (equals < 0 ? entry : entry.slice(0, equals)).trim();
    const value = equals < 0 ? null : decoded(entry.slice(equals + 1).trim());
    if (!TOKEN.test(name) || value === null || !SENDABLE_VALUE.test(value)) {
      // The entry's position, never its text: the value is usually a secret.
      warnOnce(`OTEL_EXPORTER_OTLP_HEADERS: entry ${index + 1} is not name=URL-encoded value; it is left out`);
      continue;
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

function protocolOf(env: Record<string, unknown>): OtlpProtocol {
  const value = text(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (value === undefined || value === 'http/protobuf') return 'http/protobuf';
  if (value === 'http/json') return 'http/json';
  warnOnce(`OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(value.slice(0, 40))} is not supported; using http/protobuf`);
  return 'http/protobuf';
}

function timeoutOf(env: Record<string, unknown>): number {
  const value = text(env, 'OTEL_EXPORTER_OTLP_TIMEOUT');
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = /^\d{1,9}$/.test(value) ? Number(value) : 0;
  if (ms > 0) return ms;
  warnOnce(
    `OTEL_EXPORTER_OTLP_TIMEOUT ${JSON.stringify(value.slice(0, 20))} is not a positive number of milliseconds; using ${DEFAULT_TIMEOUT_MS}`,
  );
  return DEFAULT_TIMEOUT_MS;
}

/** The export settings, or null when spans are not exported (no endpoint, or the SDK disabled). */
export function otlpSettings(env: Record<string, unknown>): OtlpSettings | null {
  if (text(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return null;
  const endpoint = tracesEndpoint(env);
  if (endpoint === null) return null;
  return {
    endpoint,
    headers: parseHeaders(text(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
    serviceName: text(env, 'OTEL_SERVICE_NAME') ?? DEFAULT_SERVICE_NAME,
    protocol: protocolOf(env),
    timeoutMs: timeoutOf(env),
  };
}
