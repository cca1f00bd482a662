/**
 * A thread endpoint's key read as a route (EP-2 to EP-5): the key is the path of the endpoint's file
 * under `agents/api/` without `.ts`. Its final filename segment, when it names an HTTP method
 * (any case), is the method, else the endpoint answers GET; a final `index` stands for its
 * directory; `[name]` is one path segment captured as `params.name`; `[*]`, last only, is the rest
 * of the path. A key that cannot be read so is a DefinitionError naming it.
 */
import { DefinitionError } from '../../spec/index.js';

/** The methods a suffix may name (EP-3: at least these five). */
export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

export type RouteSegment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string }
  /** Zero or more segments, slashes included in the value: `params['*']`. */
  | { kind: 'rest' };

export interface EndpointRoute {
  /** The key as registered. */
  key: string;
  method: EndpointMethod;
  segments: readonly RouteSegment[];
}

/** What a static segment may hold: unreserved URL characters, so it matches itself and nothing else. */
const STATIC_SEGMENT = /^[A-Za-z0-9._~-]+$/;
/** A parameter's name: what `params.name` and a path template can both carry. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function malformed(key: string, why: string): DefinitionError {
  return new DefinitionError(`endpoints["${key}"]: ${why}`);
}

/** The last segment's method suffix, if it names a method, and the name left without it. */
function splitMethod(last: string): { name: string; method: EndpointMethod } {
  const dot = last.lastIndexOf('.');
  const suffix = dot >= 0 ? last.slice(dot + 1).toUpperCase() : '';
  const method = ENDPOINT_METHODS.find((known) => known === suffix);
  return method ? { name: last.slice(0, dot), method } : { name: last, method: 'GET' };
}

function segmentOf(key: string, part: string, isLast: boolean): RouteSegment {
  if (part === '[*]') {
    if (!isLast) throw malformed(key, '[*] takes the rest of the path, so it must be the last segment');
    return { kind: 'rest' };
  }
  const bracketed = /^\[(.*)\]$/.exec(part);
  if (bracketed) {
    const name = bracketed[1] as string;
    if (!PARAM_NAME.test(name)) {
      throw malformed(key, `"${part}": a parameter's name is a letter or _ followed by letters, digits or _`);
    }
    return { kind: 'param', name };
  }
  if (part === '.' || part === '..' || !STATIC_SEGMENT.test(part)) {
    throw malformed(
      key,
      `"${part}" is not a path segment: use letters, digits, ".", "_", "~", "-", or [name] or [*] alone`,
    );
  }
  return { kind: 'static', value: part };
}

/** Reads a key as its route; throws a DefinitionError naming the key when it is malformed. */
export function parseEndpointKey(key: string): EndpointRoute {
  if (typeof key !== 'string' || key.trim() === '') throw malformed(String(key), 'the key is empty');
  if (key.endsWith('.ts')) throw malformed(key, 'write the file path without ".ts"');
  if (key.startsWith('/') || key.endsWith('/') || key.includes('//')) {
    throw malformed(key, 'the key is a file path below agents/api/: no leading, trailing or doubled "/"');
  }
  const parts = key.split('/');
  const { name, method } = splitMethod(parts.at(-1) as string);
  if (name === '') throw malformed(key, 'the file has a method suffix but no name');
  const names = [...parts.slice(0, -1), name];
  // A final `index` is its directory's own route.
  if (names.at(-1) === 'index') names.pop();
  const segments = names.map((part, index) => segmentOf(key, part, index === names.length - 1));
  const seen = new Set<string>();
  for (const segment of segments) {
    if (segment.kind !== 'param') continue;
    if (seen.has(segment.name)) throw malformed(key, `the parameter [${segment.name}] appears twice`);
    seen.add(segment.name);
  }
  return { key, method, segments };
}

/** The route's path as the specification's table writes it: `/foobar/{id}`, `/foobar/{*}`, `/`. */
export function routePath(segments: readonly RouteSegment[]): string {
  const parts = segments.map((segment) => {
    if (segment.kind === 'static') return segment.value;
    return segment.kind === 'param' ? `{${segment.name}}` : '{*}';
  });
  return `/${parts.join('/')}`;
}
