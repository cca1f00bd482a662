#!/usr/bin/env node
// Checks that every requirement id cited in the code (DEF-1, EXE-8, ...) is defined in
// docs/requirements.md, and that nothing under src/ points at DESIGN.md or SPEC.md, which are not
// part of the repository. Exits 1 and lists the problems, otherwise prints one summary line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const docPath = join(root, 'docs', 'requirements.md');
const scanDirs = ['src', 'test', 'bench', 'agents', 'scripts'];
const extensions = ['.ts', '.mjs', '.js'];
const idPattern =
  /\b(?:DEF|EXE|VAR|ATT|SUB|KIND|LOCK|PERM|CODE|THR|CRED|INJ|DEFER|IDN|TS|HOOK|EFF|EP|SCHED|WH|INBOX|BUSY|TRACE|TL|USE|EVAL|MSG|FORK)-\d+\b/g;
// An id is defined by a doc line of the form "- **DEF-1** ...".
const definitionPattern =
  /^- \*\*((?:DEF|EXE|VAR|ATT|SUB|KIND|LOCK|PERM|CODE|THR|CRED|INJ|DEFER|IDN|TS|HOOK|EFF|EP|SCHED|WH|INBOX|BUSY|TRACE|TL|USE|EVAL|MSG|FORK)-\d+)\*\*/;
const missingDocPattern = /\b(?:DESIGN|SPEC)\.md\b/g;

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
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext))) files.push(path);
  }
  return files;
}

const defined = new Set();
for (const line of readFileSync(docPath, 'utf8').split('\n')) {
  const match = definitionPattern.exec(line);
  if (match) defined.add(match[1]);
}

const firstCitation = new Map();
const unknown = new Map();
const docMentions = [];
let citations = 0;

for (const dir of scanDirs) {
  for (const file of listFiles(join(root, dir))) {
    const rel = relative(root, file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const where = `${rel}:${index + 1}`;
      for (const [id] of line.matchAll(idPattern)) {
        citations++;
        if (!firstCitation.has(id)) firstCitation.set(id, where);
        if (!defined.has(id) && !unknown.has(id)) unknown.set(id, where);
      }
      if (dir === 'src') {
        for (const [name] of line.matchAll(missingDocPattern)) docMentions.push(`${where} mentions ${name}`);
      }
    });
  }
}

if (unknown.size > 0 || docMentions.length > 0) {
  for (const [id, where] of unknown) {
    console.error(`unknown requirement id ${id} (first cited at ${where}); define it in docs/requirements.md`);
  }
  for (const mention of docMentions) {
    console.error(`${mention}, which is not in the repository`);
  }
  console.error(
    `check-requirement-ids: ${unknown.size} unknown id(s), ${docMentions.length} mention(s) of DESIGN.md/SPEC.md in src/`,
  );
  process.exit(1);
}

console.log(
  `check-requirement-ids: ${firstCitation.size} distinct ids cited ${citations} times, all defined in docs/requirements.md (${defined.size} defined)`,
);
