/**
 * The development loop stays up through a definition mistake: a real `wrangler dev` serves the
 * development Worker (src/dev-worker.ts) over a copy of the example application, the test breaks a
 * tool's definition on disk (a `z.date()` argument), sees the 503 `definition_error` on the API and
 * MCP paths and the error page at `/`, saves the fix, and drives a turn with the offline demo model,
 * all without restarting anything. Every wait polls with a deadline.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'dev-loop-key';
/** How long a save may take to be rebuilt and served: generous, and polled, never slept through. */
const RELOAD_DEADLINE_MS = 90_000;

let dir: string;
let toolFile: string;
let original: string;
let dev: WranglerDev | undefined;
let api: ApiClient;

/**
 * The development Worker and the example agents, copied under test-output/ (ignored by git, and
 * inside the repository so the copy resolves `zod` and the runtime's sources as the original does).
 */
async function copyApplication(): Promise<string> {
  const target = join(ROOT, 'test-output', `dev-loop-${process.pid}-${Date.now()}`);
  await mkdir(target, { recursive: true });
  await cp(join(ROOT, 'agents'), join(target, 'agents'), { recursive: true });
  const entry = await readFile(join(ROOT, 'src', 'dev-worker.ts'), 'utf8');
  const toSrc = relative(target, join(ROOT, 'src'));
  await writeFile(
    join(target, 'worker.ts'),
    entry.replaceAll("'./", `'${toSrc}/`).replace("'../agents/index.js'", "'./agents/index.js'"),
  );
  // The project's configuration, its paths made to point back at the repository; without the custom
  // build, wrangler dev watches every file of the bundle, the copied agents among them.
  const config = (await readFile(join(ROOT, 'wrangler.toml'), 'utf8'))
    .replace(/^main = .*$/m, 'main = "worker.ts"')
    .replaceAll('"./', `"${relative(target, ROOT)}/`)
    .replace(/^\[build\]\ncommand = .*\nwatch_dir = .*$/m, '');
  await writeFile(join(target, 'wrangler.toml'), config);
  return target;
}

/** Polls `check` until it returns a value, or fails naming `what` after the deadline. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + RELOAD_DEADLINE_MS;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      // The Worker is being reloaded: the connection may drop. Try again until the deadline.
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not within ${RELOAD_DEADLINE_MS} ms (${String(last)})\n${dev?.output().slice(-4000)}`);
}

beforeAll(async () => {
  dir = await copyApplication();
  toolFile = join(dir, 'agents', 'tools', 'get_current_time.ts');
  original = await readFile(toolFile, 'utf8');
  dev = await startWranglerDev({
    config: relative(ROOT, join(dir, 'wrangler.toml')),
    vars: { API_KEYS: KEY, DEMO_MODE: 'true' },
  });
  api = new ApiClient(dev.url, KEY);
});

afterAll(async () => {
  await dev?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run dev through a definition mistake', () => {
  it('serves the error while the definition is broken, and the app again once it is fixed', async () => {
    expect((await api.request('/api/agents')).status).toBe(200);
    const pid = dev?.pid;

    // The mistake: an argument of a type JSON cannot carry.
    const broken = original
      .replace(
        "import { defineTool } from '@standardagents/spec';",
        "import { defineTool } from '@standardagents/spec';\nimport { z } from 'zod';",
      )
      .replace('  execute: async', '  args: z.object({ when: z.date() }),\n  execute: async');
    expect(broken).not.toBe(original);
    await writeFile(toolFile, broken);

    const failure = await until('the 503 definition_error', async () => {
      const response = await api.request('/api/agents');
      if (response.status !== 503) return undefined;
      return (await response.json()) as { error: { code: string; message: string; details: Record<string, string> } };
    });
    expect(failure.error.code).toBe('definition_error');
    expect(failure.error.message).toContain('DefinitionError');
    expect(failure.error.message).toContain('argument "when"');
    expect(failure.error.message).toContain('"date"');
    expect(failure.error.details).toEqual({
      tool: 'get_current_time',
      argument: 'when',
      file: 'agents/tools/get_current_time.ts',
    });

    const mcp = await api.request('/mcp', { method: 'POST', json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(503);
    expect(await mcp.json()).toMatchObject({ error: { code: 'definition_error' } });

    const page = await fetch(`${dev?.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('argument &#34;when&#34;');
    expect(html).toContain('agents/tools/get_current_time.ts');
    expect(html).toContain('<code>get_current_time</code>');

    // The fix, saved: the same wrangler dev serves the application again.
    await writeFile(toolFile, original);
    await until('the application after the fix', async () =>
      (await api.request('/api/agents')).status === 200 ? true : undefined,
    );
    expect(dev?.pid).toBe(pid);

    // A turn with the offline demo model, which calls the tool the user names.
    const { id } = await api.createThread({ agent: 'assistant' });
    await api.postMessage(id, 'get_current_time');
    const answer = await until('the turn to end', async () => {
      const thread = await api.thread(id);
      if (thread.status === 'running') return undefined;
      const log: Message[] = await api.messages(id);
      return { thread, log };
    });
    expect(answer.thread.status).toBe('idle');
    const tool = answer.log.find((message) => message.role === 'tool');
    expect(tool).toBeDefined();
    const last = answer.log[answer.log.length - 1];
    expect(last?.role).toBe('assistant');
    expect(String(last?.content)).toMatch(/^Here is what the tools returned:\n\d{4}-\d\d-\d\dT/);
  });
});
