/**
 * SQL runs only in src/thread/storage/ (`npm run lint:sql`): the check refuses a file elsewhere under
 * src/ that calls `sql.exec` or takes `storage.sql`, lets the storage room do both, and finds the
 * repository's own tree clean.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repoRoot, 'scripts', 'check-sql-room.mjs');
const made: string[] = [];

/** Runs the check over a root whose src/ holds `files` (path to text). */
function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'sql-room-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
}

afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('SQL stays in src/thread/storage/', () => {
  it('fails on each way of running SQL outside the storage room, naming the file and line', () => {
    const result = check({
      'src/thread/inbox/keys.ts': "const a = 1;\nsql.exec('SELECT 1');\n",
      'src/thread/mcp/rows.ts': "this.sql.exec('DELETE FROM mcp_servers');\n",
      'src/thread/files/handle.ts': 'const db = ctx.storage.sql;\n',
      'src/engine/optional.ts': "storage?.sql; db.sql?.exec('x');\n",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("src/thread/inbox/keys.ts:2: sql.exec('SELECT 1');");
    expect(result.stderr).toContain('src/thread/mcp/rows.ts:1:');
    expect(result.stderr).toContain('src/thread/files/handle.ts:1:');
    expect(result.stderr).toContain('src/engine/optional.ts:1:');
    expect(result.stderr).toContain('4 line(s) run SQL outside src/thread/storage/');
  });

  it('lets the storage room run SQL, and does not mistake other names for it', () => {
    const result = check({
      'src/thread/storage/file-rows.ts': "this.sql.exec('SELECT 1'); const s = storage.sql;\n",
      'src/thread/files/ledger.ts': 'new FileRows(ctx.storage); mysql.execute(); storage.sqlite; regex.exec(text);\n',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('finds the repository clean', () => {
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8', cwd: repoRoot });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^check-sql-room: \d+ files under src\/ outside src\/thread\/storage\/ run no SQL/);
  });
});
