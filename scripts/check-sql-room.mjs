#!/usr/bin/env node
// Checks that SQL runs only in src/thread/storage/, the room that owns a thread's schema: no file
// elsewhere under src/ may call `sql.exec` or reach for `storage.sql`, the handle SQL runs on. Other
// rooms keep their rows through the typed row classes that room exports. `node
// scripts/check-sql-room.mjs [root]` checks `<root>/src` (the repository by default); exits 1 and
// lists each offending line, otherwise prints one summary line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const storageRoom = join('src', 'thread', 'storage') + sep;
const extensions = ['.ts', '.tsx', '.mts', '.cts', '.mjs', '.js'];
// `sql.exec`, `this.sql.exec`, `sql?.exec`, `ctx.storage.sql`, `storage?.sql`, spaces around the dot.
const sqlPattern = /\bsql\s*\??\.\s*exec\b|\bstorage\s*\??\.\s*sql\b/;

function listFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  const files = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext))) files.push(path);
  }
  return files;
}

const found = [];
let checked = 0;
for (const file of listFiles(join(root, 'src'))) {
  const rel = relative(root, file);
  if (rel.startsWith(storageRoom)) continue;
  checked++;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (sqlPattern.test(line)) found.push(`${rel.split(sep).join('/')}:${index + 1}: ${line.trim()}`);
    });
}

if (found.length > 0) {
  for (const line of found) console.error(line);
  console.error(
    `check-sql-room: ${found.length} line(s) run SQL outside src/thread/storage/; keep the rows in a row class there and use it`,
  );
  process.exit(1);
}

console.log(`check-sql-room: ${checked} files under src/ outside src/thread/storage/ run no SQL`);
