/**
 * `npm run eval` end to end (EVAL-1..7): the example suite (evals/example.eval.ts) run by the real
 * command against the example application under `wrangler dev` with the offline demo model passes
 * and exits 0; the same suite against a copy of the application whose assistant prompt no longer
 * offers search_knowledge_base (test/e2e/eval-app) fails, names the case and exits non-zero; and a
 * thread made here, printed as a case by `--from-thread`, passes when run.
 *
 * Two Workers, one after the other: the first run starts the project's own `wrangler dev` (the
 * command's default, stopped when it ends); the changed application is served once for the rest.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'evals', 'runner', 'bin.mjs');
const KEY = 'eval-e2e-key';

let dev: WranglerDev;
let api: ApiClient;
let scratch: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root to its end (killed, with what it printed, past the limit). */
function run(command: string, args: string[], timeoutMs = 100_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const { EVAL_URL: _url, EVAL_API_KEY: _key, ...env } = process.env;
    const child = spawn(command, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${command} ${args.join(' ')} still running after ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'evals-e2e-'));
});

afterAll(async () => {
  await dev?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Posts a message and waits for the turn's answer: the log ends in assistant text, the thread idle. */
async function say(id: string, content: string): Promise<Message[]> {
  await api.postMessage(id, content);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const messages = await api.messages(id);
    const last = messages.at(-1);
    const thread = await api.thread(id);
    if (thread.status === 'idle' && last?.role === 'assistant' && last.content) return messages;
    if (Date.now() > deadline) throw new Error(`no answer in thread ${id}: ${JSON.stringify(messages)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run eval', () => {
  it('EVAL-1, EVAL-3, EVAL-4: the example suite passes against the example application and exits 0', async () => {
    const out = join(scratch, 'run.json');
    // No --url: the command starts the project's wrangler dev (demo model) itself and stops it.
    const ran = await run('npm', ['run', '--silent', 'eval', '--', 'evals/example.eval.ts', '--out', out]);
    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/knowledge base search\s+pass/);
    expect(ran.stdout).toContain('pass rate 100.0% (5/5)');
    expect(ran.stdout).toMatch(/turn time over 6 turns: p50 \d+\.\d\ds, p95 \d+\.\d\ds/);
    const record = JSON.parse(await readFile(out, 'utf8'));
    expect(record.summary).toMatchObject({ cases: 5, passed: 5, passRate: 1, totalCostUsd: 0 });
    expect(record.summary.totalTokens).toBeGreaterThan(0);
    expect(record.cases.map((entry: { name: string }) => entry.name)).toContain('two turns in one thread');
  });

  describe('against a copy of the application with the assistant prompt changed', () => {
    beforeAll(async () => {
      dev = await startWranglerDev({
        config: 'test/e2e/eval-app/wrangler.toml',
        snapshot: true,
        inspector: false,
        vars: { API_KEYS: KEY, DEMO_MODE: 'true', SECRETS_KEY: 'eval-e2e-secrets-master-key' },
      });
      api = new ApiClient(dev.url, KEY);
    }, 120_000);

    it('EVAL-5: the example suite fails, naming the case that needs the dropped tool, and exits non-zero', async () => {
      const baseline = join(scratch, 'baseline.json');
      const passing = {
        cases: [{ name: 'knowledge base search', passed: true, tokens: 947, costUsd: 0 }],
      };
      await writeFile(baseline, JSON.stringify(passing));
      const ran = await run(process.execPath, [
        BIN,
        'evals/example.eval.ts',
        '--url',
        dev.url,
        '--key',
        KEY,
        '--baseline',
        baseline,
      ]);
      expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(1);
      expect(ran.stdout).toMatch(/knowledge base search\s+FAIL/);
      expect(ran.stdout).toContain(
        'tool_called: search_knowledge_base with {"query":"durable objects"} was not called',
      );
      expect(ran.stdout).toContain('REGRESSION knowledge base search: passed before, fails now');
      // The cases that do not need the tool still pass.
      expect(ran.stdout).toMatch(/current time\s+pass/);
      expect(ran.stdout).toMatch(/two turns in one thread\s+FAIL/);
      expect(ran.stdout).toContain('pass rate 60.0% (3/5)');
    });

    it('EVAL-6: --from-thread prints a recorded thread as a case that passes when run', async () => {
      const created = await api.json<{ id: string }>(
        '/api/threads',
        { method: 'POST', json: { agent: 'assistant' } },
        201,
      );
      await say(created.id, 'Hello, what can you do?');
      await say(created.id, 'get_current_time {}');

      const printed = await run(process.execPath, [BIN, '--from-thread', created.id, '--url', dev.url, '--key', KEY]);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain('agent: "assistant"');
      expect(printed.stdout).toContain('"Hello, what can you do?"');
      expect(printed.stdout).toContain('"get_current_time {}"');
      expect(printed.stdout).toContain(`{ kind: 'contains', text: "Here is what the tools returned:" }`);
      expect(printed.stdout).toContain(`{ kind: 'tool_called', tool: "get_current_time" }`);

      const suite = join(scratch, 'recorded.eval.ts');
      const helper = join(ROOT, 'evals', 'runner', 'suite.ts');
      await writeFile(
        suite,
        `import { defineEvalSuite } from ${JSON.stringify(helper)};\nexport default defineEvalSuite({ cases: [\n${printed.stdout}\n] });\n`,
      );
      const ran = await run(process.execPath, [BIN, suite, '--url', dev.url, '--key', KEY]);
      expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
      expect(ran.stdout).toContain('pass rate 100.0% (1/1)');
    });
  });
});
