/**
 * The packed package in a Worker project of its own, as another project would use it: `npm pack`
 * (which builds dist/), the tarball unpacked into a fresh project's node_modules, a Worker written
 * against its entry points (`standard-agents-cloudflare`, the spec API under `@standardagents/spec`),
 * type-checked against the packed declarations, served by `wrangler dev`, and driven with the packed
 * client (`standard-agents-cloudflare/client`). The package's own dependencies are linked from this
 * repository's node_modules instead of downloaded: the test must not reach a registry.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'package-key';

const WORKER = `import { createRuntime } from 'standard-agents-cloudflare';
import { defineAgent, defineModel, definePrompt, defineTool } from '@standardagents/spec';
import { z } from 'zod';

const shout = defineTool({
  description: 'Say a text loudly',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: args.text.toUpperCase() }),
});

// The model calls shout once, then answers with what it returned.
const model = defineModel({
  name: 'scripted',
  provider: 'scripted',
  script: ({ messages }) => {
    const last = messages[messages.length - 1];
    if (last?.role === 'tool') return { text: \`It said: \${String(last.content)}\` };
    return { toolCalls: [{ name: 'shout', arguments: { text: 'hello from a packed package' } }] };
  },
});

const runtime = createRuntime({
  tools: { shout },
  models: [model],
  prompts: [definePrompt({ name: 'greeter', prompt: 'Greet.', model: 'scripted', tools: ['shout'] })],
  agents: [defineAgent({ name: 'greeter', sideA: { prompt: 'greeter' }, permissions: [{ permission: 'shout', action: 'allow' }] })],
});

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
`;

const WRANGLER_TOML = `name = "packed-app"
main = "src/index.ts"
compatibility_date = "2026-04-01"
compatibility_flags = ["nodejs_compat"]

[alias]
"@standardagents/spec" = "./node_modules/standard-agents-cloudflare/dist/src/spec/index.js"
"ajv" = "./node_modules/standard-agents-cloudflare/dist/src/ajv-unavailable.js"
"ajv-formats" = "./node_modules/standard-agents-cloudflare/dist/src/ajv-unavailable.js"

[[durable_objects.bindings]]
name = "THREADS"
class_name = "Thread"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["Thread"]

[[r2_buckets]]
binding = "FILES"
bucket_name = "packed-app-files"

[[d1_databases]]
binding = "DB"
database_name = "packed-app-index"
database_id = "00000000-0000-0000-0000-000000000000"

[[worker_loaders]]
binding = "LOADER"
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ES2022',
    moduleResolution: 'Bundler',
    lib: ['ES2023'],
    types: ['@cloudflare/workers-types'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    paths: { '@standardagents/spec': ['./node_modules/standard-agents-cloudflare/dist/src/spec/index.d.ts'] },
  },
  include: ['src'],
};

let project: string;
let dev: WranglerDev;

/** Unpacks the tarball as node_modules/standard-agents-cloudflare and links what it depends on. */
async function install(tarball: string, into: string): Promise<void> {
  const modules = join(into, 'node_modules');
  const target = join(modules, 'standard-agents-cloudflare');
  await mkdir(target, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
  const manifest = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of [...Object.keys(manifest.dependencies), '@cloudflare/workers-types']) {
    const link = join(modules, name);
    await mkdir(join(link, '..'), { recursive: true });
    await symlink(join(ROOT, 'node_modules', name), link, 'dir');
  }
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'packed-app-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: ROOT });
  const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  if (!tarball) throw new Error(`npm pack printed no file: ${packed.stdout}`);
  await install(join(project, tarball.filename), project);
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src', 'index.ts'), WORKER);
  await writeFile(join(project, 'wrangler.toml'), WRANGLER_TOML);
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  dev = await startWranglerDev({ cwd: project, vars: { API_KEYS: KEY, SECRETS_KEY: 'packed-app-secrets-key' } });
}, 240_000);

afterAll(async () => {
  await dev?.stop();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships built JavaScript and declarations for the runtime, the spec API and the client', async () => {
    const target = join(project, 'node_modules', 'standard-agents-cloudflare');
    const manifest = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')) as {
      private?: boolean;
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.private).toBeUndefined();
    for (const entry of ['.', './spec', './client', './client/react']) {
      const paths = manifest.exports[entry];
      expect(paths, entry).toBeDefined();
      await expect(readFile(join(target, paths?.import ?? ''), 'utf8')).resolves.toBeTruthy();
      await expect(readFile(join(target, paths?.types ?? ''), 'utf8')).resolves.toBeTruthy();
    }
  });

  it('type-checks a Worker written against it', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toBeDefined();
  });

  it('serves that Worker under wrangler dev, driven through the packed client with types', async () => {
    const entry = join(project, 'node_modules', 'standard-agents-cloudflare', 'dist', 'client', 'index.js');
    const { createClient } = (await import(entry)) as typeof import('../../client/index.js');
    const client = createClient({ baseUrl: dev.url, apiKey: KEY });
    const created = await client.threads.create({
      agent: 'greeter',
      messages: [{ role: 'user', content: 'Greet me.' }],
    });
    const deadline = Date.now() + 30_000;
    let answer: string | null | undefined;
    while (Date.now() < deadline && !answer) {
      const { messages } = await client.messages.list(created.id);
      const last = messages.at(-1);
      if (last?.role === 'assistant' && !last.tool_calls) answer = last.content;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answer).toBe('It said: HELLO FROM A PACKED PACKAGE');
  });
});
