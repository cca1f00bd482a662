/**
 * The names of a sandboxed program's modules (CODE-1): which names a caller may give its extra
 * modules, the name each is emitted under in the isolate (`util.ts` becomes `util.js`), and what an
 * import specifier written in the program or a module resolves to. Only the program's own modules can
 * be imported, by a relative path: a package name, `node:*`, `cloudflare:*` or a URL would reach past
 * what the caller handed over, so each is refused with the file and line that wrote it.
 */

/** The module the isolate loads first; it imports the program. */
export const SANDBOX_MAIN_MODULE = 'main.js';

/** The emitted program module. */
export const PROGRAM_MODULE = 'program.js';

/** The name the program has in errors: it is no file of the caller's. */
export const PROGRAM_NAME = 'program';

/** How many extra modules a program may bring. */
export const MAX_MODULES = 20;

/** The largest program or module, in bytes of UTF-8. */
export const MAX_SOURCE_BYTES = 256 * 1024;

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;

/** Letters, digits, `_ - . /`: no spaces, quotes or backslashes that a name could smuggle into code. */
const MODULE_NAME = /^[A-Za-z0-9_\-./]+$/;

/** Why a module name is refused, or null when it is a name the isolate can load. */
export function moduleNameProblem(name: string): string | null {
  if (!MODULE_NAME.test(name)) {
    return `module name "${name}" may hold only letters, digits and _ - . /`;
  }
  if (name.startsWith('/')) return `module name "${name}" must be relative (no leading /)`;
  const segments = name.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return `module name "${name}" may not hold empty, "." or ".." segments`;
  }
  if (!SOURCE_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    return `module name "${name}" must end in .ts, .mts, .js or .mjs`;
  }
  const emitted = emittedModuleName(name);
  if (emitted === SANDBOX_MAIN_MODULE || emitted === PROGRAM_MODULE) {
    return `module name "${name}" is taken by the sandbox itself`;
  }
  return null;
}

/** A module name without its source extension: `lib/math.ts` is `lib/math`. */
function withoutExtension(name: string): string {
  const extension = SOURCE_EXTENSIONS.find((candidate) => name.endsWith(candidate));
  return extension ? name.slice(0, -extension.length) : name;
}

/** The name a module is emitted under: its extension becomes `.js` once the types are stripped. */
export function emittedModuleName(name: string): string {
  return `${withoutExtension(name)}.js`;
}

/** Whether a module is written in TypeScript (its type-only imports may then be elided). */
export function isTypeScriptName(name: string): boolean {
  return name.endsWith('.ts') || name.endsWith('.mts');
}

/** The folder of an emitted name, as path segments: `lib/math.js` is `['lib']`. */
function folderOf(emittedName: string): string[] {
  return emittedName.split('/').slice(0, -1);
}

/** `segments` joined onto `folder` with `.` and `..` applied; null when it climbs above the root. */
function joinPath(folder: string[], relative: string): string | null {
  const path = [...folder];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (path.length === 0) return null;
      path.pop();
    } else {
      path.push(segment);
    }
  }
  return path.join('/');
}

/** `target` as a relative specifier from the module `from` (both emitted names). */
function relativeSpecifier(from: string, target: string): string {
  const fromFolder = folderOf(from);
  const targetParts = target.split('/');
  let shared = 0;
  while (shared < fromFolder.length && shared < targetParts.length - 1 && fromFolder[shared] === targetParts[shared]) {
    shared += 1;
  }
  const up = fromFolder.length - shared;
  const rest = targetParts.slice(shared).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

export type SpecifierResolution = { ok: true; specifier: string } | { ok: false; problem: string };

/**
 * What `specifier`, written in the module emitted as `from`, imports: the relative specifier of an
 * emitted module (`./util`, `./util.ts` and `./util.js` all name `util.ts`), or why it cannot be
 * imported. `modules` maps each module's base name (no extension) to its emitted name.
 */
export function resolveSpecifier(
  specifier: string,
  from: string,
  modules: ReadonlyMap<string, string>,
): SpecifierResolution {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) {
    return {
      ok: false,
      problem: `cannot import "${specifier}": only the modules given with the program can be imported, by a relative path such as "./util"`,
    };
  }
  const path = joinPath(folderOf(from), specifier);
  const target = path === null ? undefined : modules.get(withoutExtension(path));
  if (target === undefined) {
    return { ok: false, problem: `cannot import "${specifier}": no module of that name was given with the program` };
  }
  return { ok: true, specifier: relativeSpecifier(from, target) };
}
