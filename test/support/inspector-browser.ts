/**
 * What every browser test of the inspector page needs, set up once per test file: a real
 * `wrangler dev` serving the example agents, whose model is a scripted local OpenAI-compatible
 * server (harness/openai-server.mjs); a local JSON service the `fetch_data` tool may read; and a
 * headless Chromium (playwright-core) with one page open on it. Nothing here reaches the internet.
 *
 *   const session = await startInspectorSession();     // in beforeAll
 *   await signIn(session.page, session.dev.url);       // the page is on the threads screen
 *   session.model.enqueue({ text: 'Hello.' });          // the next model reply
 *   await session.shot('01-name');                     // test-output/screenshots/01-name.png
 *   await until(() => session.api.threads.get(id), (t) => t.status === 'idle', 'the turn to end');
 *   await session.close();                             // in afterAll
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type Client, createClient } from '../../client/index.js';
import { CHROMIUM_MISSING, findChromium } from '../../harness/chromium.mjs';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { freePort, startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';

/** The one API key the Worker accepts. */
export const KEY = 'browser-key';
/** What the local JSON service answers to every path. */
export const WEATHER = { city: 'Lisbon', temperature_c: 21, sky: 'clear' };
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
const CHROMIUM = findChromium();

// Without the background-networking flags Chromium's own connections fail on a closed network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The local JSON service `fetch_data` reads, with the paths it was asked for. */
export interface DataServer {
  server: Server;
  url: string;
  requested: string[];
}

export interface InspectorSessionOptions {
  /** The page's size; default 1360 × 900. */
  viewport?: { width: number; height: number };
  /** More hosts the Worker may reach besides the data server (`host:port`). */
  allowHosts?: string[];
  /** More `wrangler dev` variables; these win over the defaults. */
  vars?: Record<string, string>;
  /** Console errors that are expected (matched as substrings) and so not collected in `pageErrors`. */
  expectedConsoleErrors?: string[];
}

export interface InspectorSession {
  /** The Worker: `dev.url` is its origin, which is also its PUBLIC_URL. */
  dev: WranglerDev;
  /** The scripted model: `enqueue` its next replies, `reset` between tests, read `requests`. */
  model: OpenAIServer;
  data: DataServer;
  /** The client library, signed in with KEY, to check through the API what the page shows. */
  api: Client;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and console errors of the page, for a last "no errors" test. */
  pageErrors: string[];
  /** A full-page screenshot of `page` (or another page) to test-output/screenshots/<name>.png. */
  shot(name: string, of?: Page): Promise<Buffer>;
  /** The end of wrangler dev's output, to print when a test fails. */
  devOutput(): string;
  /** Closes the browser and stops every server; safe to call after a failed start. */
  close(): Promise<void>;
}

/** Starts the servers, wrangler dev and Chromium; one per test file (wrangler dev takes seconds). */
export async function startInspectorSession(options: InspectorSessionOptions = {}): Promise<InspectorSession> {
  if (CHROMIUM === null) throw new Error(CHROMIUM_MISSING);
  await mkdir(SCREENSHOTS, { recursive: true });
  const stoppers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => {});
  };
  try {
    const model = await startOpenAIServer();
    stoppers.push(() => model.close());
    const data = await startDataServer();
    stoppers.push(() => new Promise((resolve) => data.server.close(resolve)));
    // The Worker's own origin is its PUBLIC_URL (where OAuth links and callbacks point): known before it starts.
    const port = await freePort();
    const dev = await startWranglerDev({
      port,
      vars: {
        API_KEYS: KEY,
        OPENAI_BASE_URL: model.baseURL,
        OPENAI_API_KEY: 'x',
        MODEL: 'fake-model',
        // The local services are development hosts.
        EGRESS_ALLOW_HOSTS: [new URL(data.url).host, ...(options.allowHosts ?? [])].join(','),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SECRETS_KEY: 'browser-test-secrets-key',
        ...options.vars,
      },
    });
    stoppers.push(() => dev.stop());
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    stoppers.push(() => browser.close());
    const viewport = options.viewport ?? { width: 1360, height: 900 };
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    const page = await context.newPage();
    const pageErrors = collectErrors(page, options.expectedConsoleErrors ?? []);
    return {
      dev,
      model,
      data,
      api: createClient({ baseUrl: dev.url, apiKey: KEY }),
      browser,
      context,
      page,
      pageErrors,
      shot: (name, of = page) => of.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }),
      devOutput: () => dev.output().slice(-6000),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function collectErrors(page: Page, expected: string[]): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !expected.some((part) => text.includes(part))) errors.push(text);
  });
  return errors;
}

async function startDataServer(): Promise<DataServer> {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(WEATHER));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, requested };
}

/** Opens the page with `key` and signs in; resolves on the threads screen. */
export async function signIn(page: Page, origin: string, key = KEY): Promise<void> {
  await page.goto(`${origin}/?key=${encodeURIComponent(key)}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Threads', level: 1 }).waitFor();
}

/** Waits until `read` returns something `check` accepts, polling every 100 ms; returns that value. */
export async function until<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
