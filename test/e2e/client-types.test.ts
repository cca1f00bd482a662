/**
 * The client cannot drift from the server: scripts/client-types.mjs starts `wrangler dev`, reads the
 * OpenAPI document the Worker serves and generates the types of client/openapi.ts again; the test
 * fails when they differ from the committed file (run `node scripts/client-types.mjs` to update it).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

it('THR-5: client/openapi.ts is what the served OpenAPI document generates', async () => {
  const run = promisify(execFile)(process.execPath, ['scripts/client-types.mjs', '--check'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const outcome = await run.then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  expect(outcome.stderr).toBe('');
  expect(outcome.stdout).toBe('client/openapi.ts matches the served OpenAPI document\n');
  expect(outcome.code).toBe(0);
});
