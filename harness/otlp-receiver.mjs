/**
 * A local OTLP/HTTP trace receiver for the tests and the bench: `POST /v1/traces` takes an
 * `ExportTraceServiceRequest` as protobuf (`application/x-protobuf`) or JSON (`application/json`),
 * keeps its spans as plain objects (otlp-decode.mjs) and answers as a collector does. For the
 * failure tests it can be told to answer 500 or 400, to redirect (307 back to itself), to hang (take
 * the request and never answer) or be closed. Plain ESM JavaScript like the other harness modules; types are in
 * otlp-receiver.d.mts.
 */
import { createServer } from 'node:http';
import { decodeJsonTraces, decodeProtobufTraces } from './otlp-decode.mjs';

/** A request body larger than this is refused with 413, as a collector limits its input. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function headersOf(req) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return headers;
}

/** The spans of a body in the request's format; throws when the body is not what it claims. */
function decode(contentType, body) {
  if (contentType === 'application/x-protobuf') return decodeProtobufTraces(body);
  if (contentType === 'application/json')
    return decodeJsonTraces(new TextDecoder('utf-8', { fatal: true }).decode(body));
  throw new Error(`unsupported content type ${contentType}`);
}

/** A receiver on its own port of 127.0.0.1. */
export async function startOtlpReceiver() {
  const spans = [];
  const received = [];
  const waiters = new Set();
  let mode = 'ok';

  function notify() {
    for (const waiter of waiters) waiter();
  }

  function answer(res, status, contentType, body) {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname !== '/v1/traces') return answer(res, 404, 'text/plain', 'not found');
    if (req.method !== 'POST') return answer(res, 405, 'text/plain', 'POST only');
    const contentType = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const record = { headers: headersOf(req), contentType, bytes: 0, spans: 0, status: 0 };
    received.push(record);
    notify();
    if (mode === 'hang') return; // the request is taken and never answered
    if (mode === 'redirect') {
      record.status = 307;
      res.writeHead(307, { location: `${url.pathname}?redirected=${received.length}` });
      return res.end();
    }
    let body;
    try {
      body = await readBody(req);
    } catch {
      record.status = 413;
      return answer(res, 413, 'text/plain', 'too large');
    }
    record.bytes = body.length;
    if (mode === '500' || mode === '400') {
      record.status = Number(mode);
      return answer(res, record.status, 'application/json', '{"code":13,"message":"told to fail"}');
    }
    let decoded;
    try {
      decoded = decode(contentType, body);
    } catch (error) {
      record.status = 400;
      return answer(res, 400, 'application/json', JSON.stringify({ message: String(error) }));
    }
    record.spans = decoded.length;
    record.status = 200;
    spans.push(...decoded);
    notify();
    // An empty ExportTraceServiceResponse: full success.
    if (contentType === 'application/json') return answer(res, 200, 'application/json', '{}');
    return answer(res, 200, 'application/x-protobuf', new Uint8Array(0));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, 'text/plain', 'receiver failed');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    endpoint: `${url}/v1/traces`,
    /** How many requests reached /v1/traces, answered or not. */
    get requests() {
      return received.length;
    },
    /** Each request: its headers, content type, size, span count and the status it got. */
    received: () => received.slice(),
    spans: () => spans.slice(),
    /** How the next requests are answered: 'ok', '500', '400', 'redirect' or 'hang'. */
    answerWith(next) {
      mode = next;
    },
    /** The spans once `predicate` holds for them; rejects after `timeoutMs`. */
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(spans)) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(spans.slice());
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the OTLP receiver did not get the expected spans within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    /** Stops listening and drops every open connection, hanging ones included. */
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
