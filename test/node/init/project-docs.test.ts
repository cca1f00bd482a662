/**
 * docs/deploy.md shows the files `standard-agents-cloudflare init my-agents` writes, each after a
 * `<!-- file: <path> -->` marker: this test holds the page and the command to the same text, so a
 * change to either that the other does not follow fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../../../init/project-files.js';
import { projectVersions } from '../../../init/versions.js';

const PAGE = readFileSync(new URL('../../../docs/deploy.md', import.meta.url), 'utf8');

/** Each marked block of the page: the path its marker names and the text inside its fence. */
function documentedFiles(page: string): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  for (const match of page.matchAll(/^<!-- file: (\S+) -->\n(`{3,})[^\n]*\n/gm)) {
    const start = (match.index ?? 0) + match[0].length;
    const fence = match[2] as string;
    const end = page.indexOf(`\n${fence}\n`, start - 1);
    if (end < 0) throw new Error(`the block of ${match[1]} in docs/deploy.md is not closed`);
    found.push({ path: match[1] as string, text: page.slice(start, end + 1) });
  }
  return found;
}

describe('docs/deploy.md and the init command', () => {
  const versions = projectVersions(new URL('../../../package.json', import.meta.url));
  const written = projectFiles('my-agents', versions);

  it('shows every file init writes, in the same order', () => {
    expect(documentedFiles(PAGE).map((file) => file.path)).toEqual(written.map((file) => file.path));
  });

  for (const file of written) {
    it(`shows ${file.path} exactly as init writes it`, () => {
      expect(documentedFiles(PAGE).find((shown) => shown.path === file.path)?.text).toBe(file.text);
    });
  }

  it('reads a block as its fence holds it', () => {
    const page = '<!-- file: a.txt -->\n```text\nfirst\n\n```inline```\nlast\n```\n';
    expect(documentedFiles(page)).toEqual([{ path: 'a.txt', text: 'first\n\n```inline```\nlast\n' }]);
  });
});
