/**
 * The name a new project goes by, taken from the folder it is written to. The same name lands in
 * package.json, in wrangler.toml (the Worker, its R2 bucket and its D1 database) and in the README,
 * so it is reduced to what all of them accept: lower-case letters, digits and single dashes. A folder
 * name is whatever the user typed, quotes and newlines included: nothing of it reaches a generated
 * file except these characters, so it cannot add a line or a key to any of them.
 */

/** Cloudflare allows 63 characters in a bucket name, and the bucket is `<name>-files`. */
export const MAX_PROJECT_NAME = 57;

/** The project name for a folder name, or null when nothing of it can be used. */
export function projectName(folder: string): string | null {
  const name = folder
    // Accented letters keep their letter (é is e followed by a mark, and the mark goes).
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_PROJECT_NAME)
    .replace(/^-+|-+$/g, '');
  return /[a-z0-9]/.test(name) ? name : null;
}
