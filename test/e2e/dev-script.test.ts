/**
 * `npm run dev` (scripts/dev.mjs) through a file that does not build: started on a copy of the
 * project whose client module (bundled into the inspector by wrangler's custom build) does not parse,
 * wrangler dev exits; the script says so, keeps the units MCP server up, and starts wrangler again
 * when the fix is saved, which then serves the application. Every wait polls with a deadline.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../harness/wrangler-dev.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEADLINE_MS = 100_000;
/** What the script runs on: copied, so the test never edits the repository's files. */
const COPIED = ['src', 'agents', 'client', 'inspector', 'tsconfig.json', 'wrangler.toml', 'scripts'];
const LINKED = ['node_modules', 'harness'];

let dir: string | undefined;
let stop: (() => Promise<void>) | undefined;

async function copyProject(): Promise<string> {
  const target = join(ROOT, 'test-output', `dev-script-${process.pid}-${Date.now()}`);
  await mkdir(target, { recursive: true });
  for (const name of COPIED) await cp(join(ROOT, name), join(target, name), { recursive: true });
  for (const name of LINKED) await symlink(join(ROOT, name), join(target, name));
  return target;
}

async function until<T>(what: string, output: () => string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not within ${DEADLINE_MS} ms\n${output().slice(-4000)}`);
}

afterAll(async () => {
  await stop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run dev through a file that does not build', () => {
  it('keeps the MCP server up and starts wrangler again once the fix is saved', async () => {
    dir = await copyProject();
    const brokenFile = join(dir, 'client', 'index.ts');
    const original = await readFile(brokenFile, 'utf8');
    await writeFile(brokenFile, `${original}\nexport const broken = {{{;\n`);
    const [port, inspectorPort, unitsPort] = [await freePort(), await freePort(), await freePort()];
    const args = ['--ip', '127.0.0.1', '--port', `${port}`, '--inspector-port', `${inspectorPort}`];
    const child = spawn(
      process.execPath,
      ['scripts/dev.mjs', ...args, '--persist-to', join(dir, 'state'), '--show-interactive-dev-session=false'],
      {
        cwd: dir,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          UNITS_MCP_PORT: `${unitsPort}`,
          CI: 'true',
          NO_COLOR: '1',
          WRANGLER_SEND_METRICS: 'false',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    stop = async () => {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    };
    const log = () => output;
    const mcpUp = async () => (await fetch(`http://127.0.0.1:${unitsPort}/mcp`)).status;

    await until('wrangler dev to exit over the syntax error', log, async () =>
      output.includes('[dev] wrangler dev exited') ? true : undefined,
    );
    expect(child.exitCode).toBeNull();
    expect(await mcpUp()).toBeGreaterThan(0);

    await writeFile(brokenFile, original);
    const status = await until('the application after the fix', log, async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/agents`, {
        headers: { authorization: 'Bearer dev-key' },
      });
      return response.status === 200 ? response.status : undefined;
    });
    expect(status).toBe(200);
    expect(output).toContain('[dev] a file changed: starting wrangler dev again');
    expect(await mcpUp()).toBeGreaterThan(0);
    expect(child.exitCode).toBeNull();
  });
});
