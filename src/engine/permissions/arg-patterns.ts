/**
 * How a shell requirement's argument patterns (LOCK-5, PAT-1; seed 003's `ArgPattern`) match one
 * argument of a command, in canonical form:
 *
 * - a string matches that argument exactly;
 * - `{ wildcard: true }` matches one positional argument: anything that is not an option (does not
 *   start with `-`), so `find {wildcard}` cannot become `find -delete` and `git push {wildcard}`
 *   cannot become `git push --force`; an option must be spelled in the pattern;
 * - `{ prefix }` matches an argument that starts with the prefix, read as what it names: a prefix
 *   starting with `/` is a thread path, and the argument must be one whose canonical form starts
 *   with it (`/docs/../secret` and `/docs/%2e%2e/secret` are not under `/docs/`); a prefix that is
 *   an http(s) URL names a site, and the argument must be a URL of that same origin whose
 *   normalised form starts with it (`https://example.com.evil.net`, `https://example.com@evil.net`
 *   and a backslash the URL parser would read as a slash do not match `https://example.com`).
 *   Any other prefix is compared as text.
 */
import type { ArgPattern } from '../../spec/index.js';
import { canonicalText, normalizeThreadPath } from '../files/index.js';

/** Canonical thread path, or null for an argument that cannot name one. */
function threadPath(text: string): string | null {
  try {
    return normalizeThreadPath(text);
  } catch {
    return null;
  }
}

function underPathPrefix(prefix: string, arg: string): boolean {
  const base = threadPath(prefix);
  const path = threadPath(arg);
  if (base === null || path === null) return false;
  // `/docs/` names the folder's contents; `/docs/build-` any name starting so.
  const wanted = prefix.endsWith('/') && base !== '/' ? `${base}/` : base;
  return path.startsWith(wanted) || `${path}/` === wanted;
}

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function underUrlPrefix(prefix: string, arg: string): boolean {
  // A parser and the program given the argument may disagree on these; such an argument matches nothing.
  if (/[\\\s\p{Cc}]/u.test(arg)) return false;
  const base = parsedUrl(prefix);
  const url = parsedUrl(arg);
  if (!base || !url || url.origin !== base.origin || url.username !== '' || url.password !== '') return false;
  return url.href.startsWith(base.href) || `${url.href}/` === base.href;
}

export function argMatches(pattern: ArgPattern, arg: string | undefined): boolean {
  if (arg === undefined) return false;
  if (typeof pattern === 'string') return canonicalText(pattern) === arg;
  if ('wildcard' in pattern) return !arg.startsWith('-');
  const prefix = canonicalText(pattern.prefix);
  if (prefix.startsWith('/')) return underPathPrefix(prefix, arg);
  if (/^https?:\/\//i.test(prefix)) return underUrlPrefix(prefix, arg);
  return arg.startsWith(prefix);
}
