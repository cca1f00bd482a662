/**
 * Definition errors (DEF-1, DEF-2), and their deferral under `npm run dev` (at the end): a definition
 * the runtime cannot serve stops the Worker with one readable line that says which definition
 * failed — a prompt's or agent's name, a tool's description and, outside a bundle, the file and
 * line it was written at — and, for a schema, the argument path.
 * Inside a bundle (a deployed or `wrangler dev` Worker) every stack frame is the bundle's, so no site
 * is given there: the error's own words must say which definition failed.
 */

/** How many trailing path segments a site shows: enough to find the file, short enough to read. */
const SITE_SEGMENTS = 3;

function frameFile(line: string): { file: string; line: string } | null {
  const match = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/.exec(line.trim());
  return match ? { file: (match[1] as string).replace(/^file:\/\//, ''), line: match[2] as string } : null;
}

/**
 * In a bundle whose application modules load lazily (the development Worker requires them), esbuild
 * wraps each module in a function named after its source path: `at agents/tools/x.ts (worker.js:9:3)`.
 * That name is the only trace of the file left there; the line is the bundle's, so none is given.
 */
function bundledModule(lines: readonly string[]): string | null {
  for (const line of lines) {
    const name = /^\s*at (?:Object\.)?([^\s()]+\.[cm]?[jt]sx?) \(/.exec(line)?.[1];
    if (name && !/(^|\/)src\/spec\//.test(name) && !name.includes('node_modules/')) {
      return name.split('/').slice(-SITE_SEGMENTS).join('/');
    }
  }
  return null;
}

/** Where a definition was written: the caller's file and line, as `agents/tools/get_weather.ts:12`. */
export function definitionSite(): string | null {
  const lines = (new Error().stack ?? '').split('\n');
  const frames = lines.map(frameFile).filter((frame) => frame !== null);
  const here = frames[0]?.file;
  for (const frame of frames.slice(1)) {
    if (/\/src\/spec\//.test(frame.file) || frame.file.startsWith('node:') || frame.file.includes('/node_modules/')) {
      continue;
    }
    // The same file as this function's own: a bundle, where a line says nothing about the source.
    if (frame.file === here) return bundledModule(lines);
    return `${frame.file.split('/').slice(-SITE_SEGMENTS).join('/')}:${frame.line}`;
  }
  return null;
}

/**
 * A definition the runtime cannot serve. Its message names the definition (a prompt's or agent's
 * name, a tool's description and where it was written) and, for a schema, the argument path; its
 * stack is that one line, so `wrangler dev` shows a readable line instead of frames in the bundle.
 */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
    this.stack = `${this.name}: ${message}`;
  }
}

/** How errors name a tool definition: `defineTool "Get the weather for a city" (agents/tools/weather.ts:5)`. */
export function toolDefinitionLabel(kind: string, description: unknown): string {
  const first = typeof description === 'string' ? (description.trim().split('\n')[0] ?? '') : '';
  const label = first === '' ? '' : ` "${first.length > 60 ? `${first.slice(0, 59)}…` : first}"`;
  const site = definitionSite();
  return `${kind}${label}${site ? ` (${site})` : ''}`;
}

/*
 * Deferred definition errors, for the development Worker only (`npm run dev`): a `defineTool` that
 * fails its checks while the application's modules load returns a placeholder holding the error
 * instead of throwing, so the registry can report it under the key the tool is registered by
 * (`tools.get_weather`), which the tool's own file does not know. Off by default: a deployed Worker
 * throws at load, so a broken deploy fails instead of serving.
 */
let deferring = false;
const BROKEN = Symbol('definition error');

/** From now on in this isolate, `defineTool` returns a placeholder instead of throwing a DefinitionError. */
export function deferDefinitionErrors(): void {
  deferring = true;
}

/** Rethrows `error` unless definition errors are deferred and it is one; then returns its placeholder. */
export function deferredDefinition<T>(error: unknown, description: unknown): T {
  if (!deferring || !(error instanceof DefinitionError)) throw error;
  // `kind` as a real tool's, so nothing before the registry trips on the placeholder.
  return { kind: 'function', description, [BROKEN]: error } as T;
}

/** The DefinitionError a placeholder holds, or undefined for a real definition. */
export function deferredDefinitionError(value: unknown): DefinitionError | undefined {
  return typeof value === 'object' && value !== null ? (value as { [BROKEN]?: DefinitionError })[BROKEN] : undefined;
}
