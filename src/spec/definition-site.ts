/**
 * Where a definition was written, for its errors (DEF-1, DEF-2): the caller's file and line, taken
 * from the stack, as `agents/tools/get_weather.ts:12`. Inside a bundle (a deployed or `wrangler dev`
 * Worker) every frame is the bundle's, so no site is given there: the error's own words (the tool's
 * description, the argument path) must say which definition failed.
 */

/** How many trailing path segments a site shows: enough to find the file, short enough to read. */
const SITE_SEGMENTS = 3;

function frameFile(line: string): { file: string; line: string } | null {
  const match = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/.exec(line.trim());
  return match ? { file: (match[1] as string).replace(/^file:\/\//, ''), line: match[2] as string } : null;
}

export function definitionSite(): string | null {
  const frames = (new Error().stack ?? '')
    .split('\n')
    .map(frameFile)
    .filter((frame) => frame !== null);
  const here = frames[0]?.file;
  for (const frame of frames.slice(1)) {
    if (/\/src\/spec\//.test(frame.file) || frame.file.startsWith('node:') || frame.file.includes('/node_modules/')) {
      continue;
    }
    // The same file as this function's own: a bundle, where a line says nothing about the source.
    if (frame.file === here) return null;
    return `${frame.file.split('/').slice(-SITE_SEGMENTS).join('/')}:${frame.line}`;
  }
  return null;
}
