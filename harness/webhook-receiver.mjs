/**
 * A local webhook receiver for the tests: endpoints under `/hooks/<name>` that record every request
 * (headers and exact body) and answer by a plan given in the URL, `?plan=500,drop,200`: the first
 * request to that name gets a 500, the second has its connection dropped without an answer, the
 * third and every later one a 200. `redirect:<url>` answers 302 to that URL. `GET
 * /hooks-received/<name>` lists what a name received. The workerd tests mount `handleWebhookRequest`
 * on their services server; the end-to-end tests start it alone with `startWebhookReceiver`.
 * Plain ESM JavaScript like the other harness modules; types are in webhook-receiver.d.mts.
 */
import { createServer } from 'node:http';

/** @type {Map<string, { headers: Record<string, string>, body: string, answer: string }[]>} */
const received = new Map();

function readBody(req) {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
  });
}

function headersOf(req) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return headers;
}

/** What a name has received so far. */
export function receivedBy(name) {
  return received.get(name) ?? [];
}

/**
 * Answers a request under `/hooks/` or `/hooks-received/`; false when the path is neither.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {URL} url
 */
export function handleWebhookRequest(req, res, url) {
  const listing = /^\/hooks-received\/([\w.-]+)$/.exec(url.pathname);
  if (listing) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(receivedBy(listing[1])));
    return true;
  }
  const hook = /^\/hooks\/([\w.-]+)$/.exec(url.pathname);
  if (!hook) return false;
  void answer(req, res, url, hook[1]);
  return true;
}

async function answer(req, res, url, name) {
  const body = await readBody(req);
  const list = received.get(name) ?? [];
  received.set(name, list);
  const plan = (url.searchParams.get('plan') ?? '').split(',').filter(Boolean);
  const step = plan[list.length] ?? '200';
  list.push({ headers: headersOf(req), body, answer: step });
  if (step === 'drop') {
    req.socket.destroy();
    return;
  }
  if (step.startsWith('redirect:')) {
    res.writeHead(302, { location: step.slice('redirect:'.length) });
    res.end();
    return;
  }
  res.writeHead(Number(step) || 200, { 'content-type': 'text/plain' });
  res.end('ok');
}

/** A receiver on its own port of 127.0.0.1, for the end-to-end tests. */
export async function startWebhookReceiver() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (!handleWebhookRequest(req, res, url)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received: receivedBy,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
