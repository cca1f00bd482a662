/**
 * An application's thread endpoints compiled once, at startup, into one route table (EP-2 to EP-6),
 * and a request path matched against it. Two keys that answer the same method and path (`notes` and
 * `notes/index`; `notes/[id]` and `notes/[note]`) are a DefinitionError naming both. Where several
 * routes match, the one whose segments are the more specific, read left to right, wins: a static
 * segment over a `[name]`, a `[name]` over `[*]`, and a path that ends over a `[*]` that takes
 * nothing.
 */
import { DefinitionError } from '../../spec/index.js';
import {
  type EndpointMethod,
  type EndpointRoute,
  parseEndpointKey,
  type RouteSegment,
  routePath,
} from './endpoint-key.js';

/** Which endpoint a request is for, as the Worker hands it to the thread: its key and its path's values. */
export interface EndpointTarget {
  key: string;
  params: Record<string, string>;
}

export interface RouteMatch {
  route: EndpointRoute;
  /** `[name]` values by name, `[*]`'s under `'*'`, percent-decoded. */
  params: Record<string, string>;
}

/** How specific a segment is: lower wins. A route that has ended ranks before a `[*]` taking nothing. */
const RANK = { end: 0, static: 1, param: 2, rest: 3 } as const;

/** The route's shape, param names left out: two keys with the same shape answer the same requests. */
function shapeOf(route: EndpointRoute): string {
  const parts = route.segments.map((segment) => (segment.kind === 'static' ? segment.value : `[${segment.kind}]`));
  return `${route.method} /${parts.join('/')}`;
}

/**
 * Matches decoded path segments against a route's segments: its params and the rank of each
 * segment that matched, or null.
 */
export function matchSegments(
  segments: readonly RouteSegment[],
  path: readonly string[],
): { params: Record<string, string>; ranks: number[] } | null {
  const params: Record<string, string> = {};
  const ranks: number[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment.kind === 'rest') {
      params['*'] = path.slice(index).join('/');
      ranks.push(RANK.rest);
      return { params, ranks };
    }
    const part = path[index];
    if (part === undefined) return null;
    if (segment.kind === 'static' && segment.value !== part) return null;
    if (segment.kind === 'param') params[segment.name] = part;
    ranks.push(RANK[segment.kind]);
  }
  if (path.length !== segments.length) return null;
  ranks.push(RANK.end);
  return { params, ranks };
}

function moreSpecific(a: readonly number[], b: readonly number[]): boolean {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    if (a[index] !== b[index]) return (a[index] as number) < (b[index] as number);
  }
  return a.length < b.length;
}

/**
 * A request path's segments, percent-decoded; null when one is not valid percent-encoding, so no
 * route matches it. An empty path and `/` are the root; a trailing slash is ignored.
 */
export function pathSegments(path: string): string[] | null {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed === '') return [];
  try {
    return trimmed.split('/').map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

export class EndpointRoutes {
  readonly routes: readonly EndpointRoute[];

  constructor(keys: Iterable<string>) {
    const routes: EndpointRoute[] = [];
    const byShape = new Map<string, string>();
    for (const key of keys) {
      const route = parseEndpointKey(key);
      const shape = shapeOf(route);
      const earlier = byShape.get(shape);
      if (earlier !== undefined) {
        throw new DefinitionError(
          `endpoints["${earlier}"] and endpoints["${key}"] both answer ${route.method} ${routePath(route.segments)}`,
        );
      }
      byShape.set(shape, key);
      routes.push(route);
    }
    this.routes = routes;
  }

  /** The route that answers `method` at `path` (below the thread), or null. HEAD is answered as GET. */
  match(method: string, path: string): RouteMatch | null {
    const upper = method.toUpperCase();
    const wanted = (upper === 'HEAD' ? 'GET' : upper) as EndpointMethod;
    const parts = pathSegments(path);
    if (!parts) return null;
    let best: { route: EndpointRoute; params: Record<string, string>; ranks: number[] } | null = null;
    for (const route of this.routes) {
      if (route.method !== wanted) continue;
      const matched = matchSegments(route.segments, parts);
      if (matched && (!best || moreSpecific(matched.ranks, best.ranks))) best = { route, ...matched };
    }
    return best ? { route: best.route, params: best.params } : null;
  }
}
