/**
 * The README and every page under docs/ link only to files and headings that exist: a page moved or
 * a heading renamed fails here instead of leaving a reader at a dead link. Links inside code blocks
 * are code, not links; links to other sites are not followed (no test reaches the internet).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page's text with fenced code blocks and inline code blanked out. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface Link {
  page: string;
  target: string;
}

function links(page: string): Link[] {
  const text = prose(readFileSync(join(ROOT, page), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({ page, target: match[1] ?? '' }));
}

/** Why the link is dead, or null when it leads somewhere. */
function problem({ page, target }: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
  if (!existsSync(file)) return `no file ${relative(ROOT, file)}`;
  if (anchor === undefined) return null;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `#${anchor} on a file that is not a page`;
  return anchors(readFileSync(file, 'utf8')).has(anchor) ? null : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

describe('documentation links', () => {
  it('the README links every page under docs/', () => {
    const readme = new Set(links('README.md').map(({ target }) => target.split('#')[0]));
    const unlinked = PAGES.filter((page) => page !== 'README.md' && !readme.has(page));
    expect(unlinked).toEqual([]);
  });

  it.each(PAGES)('every link of %s leads to an existing file and heading', (page) => {
    const dead = links(page)
      .map((link) => ({ target: link.target, problem: problem(link) }))
      .filter((entry) => entry.problem !== null);
    expect(dead).toEqual([]);
  });

  it('finds a dead link when there is one', () => {
    expect(problem({ page: 'README.md', target: 'docs/no-such-page.md' })).toMatch(/no file/);
    expect(problem({ page: 'README.md', target: 'docs/api.md#no-such-heading' })).toMatch(/no heading/);
    expect(problem({ page: 'docs/api.md', target: '#routes' })).toBeNull();
  });
});
