/**
 * Thread endpoint keys read as routes and the route table they compile into (EP-3 to EP-7): every
 * rule of the specification's file-based routing, and the keys refused at startup. The same table
 * answers requests through HTTP in test/workers/endpoints.test.ts.
 */
import { DefinitionError, defineThreadEndpoint } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { EndpointRoutes, routePath } from '../../../../src/engine/endpoints/index.js';
import { Registry } from '../../../../src/engine/registry/index.js';
import { HOSTILE_ENDPOINT_KEYS } from '../../../support/hostile-corpus.js';

function table(...keys: string[]): EndpointRoutes {
  return new EndpointRoutes(keys);
}

/** Which key answers, and with which params; null for none. */
function answer(routes: EndpointRoutes, method: string, path: string) {
  const match = routes.match(method, path);
  return match ? { key: match.route.key, params: match.params } : null;
}

describe("the specification's routing table", () => {
  it('EP-2, EP-3, EP-4, EP-6: each row of the table maps to its method and path', () => {
    const routes = table('foo', 'bar.post', 'index', 'foobar/index', 'foobar/other', 'foobar/[id]', 'foobar/[*]');
    const paths = Object.fromEntries(
      routes.routes.map((route) => [route.key, `${route.method} ${routePath(route.segments)}`]),
    );
    expect(paths).toEqual({
      foo: 'GET /foo',
      'bar.post': 'POST /bar',
      index: 'GET /',
      'foobar/index': 'GET /foobar',
      'foobar/other': 'GET /foobar/other',
      'foobar/[id]': 'GET /foobar/{id}',
      'foobar/[*]': 'GET /foobar/{*}',
    });
    expect(answer(routes, 'GET', '/foo')).toEqual({ key: 'foo', params: {} });
    expect(answer(routes, 'POST', '/bar')).toEqual({ key: 'bar.post', params: {} });
    expect(answer(routes, 'GET', '/')).toEqual({ key: 'index', params: {} });
    expect(answer(routes, 'GET', '')).toEqual({ key: 'index', params: {} });
    expect(answer(routes, 'GET', '/foobar')).toEqual({ key: 'foobar/index', params: {} });
    expect(answer(routes, 'GET', '/foobar/other')).toEqual({ key: 'foobar/other', params: {} });
    expect(answer(routes, 'GET', '/foobar/42')).toEqual({ key: 'foobar/[id]', params: { id: '42' } });
    expect(answer(routes, 'GET', '/foobar/a/b/c')).toEqual({ key: 'foobar/[*]', params: { '*': 'a/b/c' } });
  });

  it('EP-3: no suffix is GET; get, post, put, patch and delete suffixes in any case; others are part of the name', () => {
    const routes = table('items', 'items.POST', 'items.Put', 'items.patch', 'items.DeLeTe', 'report.get', 'export.csv');
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(answer(routes, method, '/items')?.key).toBe(
        { GET: 'items', POST: 'items.POST', PUT: 'items.Put', PATCH: 'items.patch', DELETE: 'items.DeLeTe' }[method],
      );
    }
    expect(answer(routes, 'get', '/report')?.key).toBe('report.get');
    expect(answer(routes, 'POST', '/report')).toBeNull();
    // A suffix that names no method is part of the file's name: GET /export.csv.
    expect(answer(routes, 'GET', '/export.csv')?.key).toBe('export.csv');
    expect(answer(routes, 'GET', '/export')).toBeNull();
    // HEAD is answered by the GET endpoint.
    expect(answer(routes, 'HEAD', '/items')?.key).toBe('items');
    // The suffix is only the final filename segment: a folder named like a method is a folder.
    expect(answer(table('v.post/x'), 'GET', '/v.post/x')?.key).toBe('v.post/x');
  });

  it('EP-4: index maps to its directory, with or without a method; a folder named index is a folder', () => {
    const routes = table('notes/index', 'notes/index.post', 'index.delete', 'index/more');
    expect(answer(routes, 'GET', '/notes')?.key).toBe('notes/index');
    expect(answer(routes, 'GET', '/notes/')?.key).toBe('notes/index');
    expect(answer(routes, 'POST', '/notes')?.key).toBe('notes/index.post');
    expect(answer(routes, 'DELETE', '/')?.key).toBe('index.delete');
    expect(answer(routes, 'GET', '/index/more')?.key).toBe('index/more');
    expect(answer(routes, 'GET', '/notes/index')).toBeNull();
  });

  it('EP-5: static beats dynamic, dynamic beats catch-all, whatever order the keys were given in', () => {
    for (const keys of [
      ['notes/[*]', 'notes/[id]', 'notes/recent'],
      ['notes/recent', 'notes/[id]', 'notes/[*]'],
    ]) {
      const routes = table(...keys);
      expect(answer(routes, 'GET', '/notes/recent')?.key).toBe('notes/recent');
      expect(answer(routes, 'GET', '/notes/7')).toEqual({ key: 'notes/[id]', params: { id: '7' } });
      expect(answer(routes, 'GET', '/notes/7/history')).toEqual({ key: 'notes/[*]', params: { '*': '7/history' } });
    }
    // Read left to right: the first segment that differs decides.
    const routes = table('a/[x]/c', 'a/b/[y]', '[z]/b/c');
    expect(answer(routes, 'GET', '/a/b/c')?.key).toBe('a/b/[y]');
    expect(answer(routes, 'GET', '/a/q/c')).toEqual({ key: 'a/[x]/c', params: { x: 'q' } });
    expect(answer(routes, 'GET', '/q/b/c')).toEqual({ key: '[z]/b/c', params: { z: 'q' } });
    // A path that ends beats a catch-all taking nothing.
    expect(answer(table('docs/[*]', 'docs'), 'GET', '/docs')?.key).toBe('docs');
  });

  it('EP-6: [name] takes exactly one segment; [*] takes zero or more, slashes included, decoded', () => {
    const routes = table('notes/[id]', 'files/[*]', '[owner]/repos/[repo]');
    expect(answer(routes, 'GET', '/notes')).toBeNull();
    expect(answer(routes, 'GET', '/notes/a/b')).toBeNull();
    expect(answer(routes, 'GET', '/notes/a%20b')).toEqual({ key: 'notes/[id]', params: { id: 'a b' } });
    expect(answer(routes, 'GET', '/files')).toEqual({ key: 'files/[*]', params: { '*': '' } });
    expect(answer(routes, 'GET', '/files/a')).toEqual({ key: 'files/[*]', params: { '*': 'a' } });
    expect(answer(routes, 'GET', '/files/a/b/c.txt')).toEqual({ key: 'files/[*]', params: { '*': 'a/b/c.txt' } });
    expect(answer(routes, 'GET', '/ada/repos/engine')).toEqual({
      key: '[owner]/repos/[repo]',
      params: { owner: 'ada', repo: 'engine' },
    });
    // Broken percent-encoding matches nothing.
    expect(answer(routes, 'GET', '/notes/%E0%A4%A')).toBeNull();
  });
});

describe('keys refused at startup', () => {
  it('EP-7: two keys answering the same method and path are a DefinitionError naming both', () => {
    for (const [a, b] of [
      ['notes', 'notes/index'],
      ['notes/[id]', 'notes/[note]'],
      ['report', 'report.get'],
      ['export.post', 'export.POST'],
      ['files/[*]', 'files/[*].GET'],
    ] as const) {
      expect(() => table(a, b)).toThrow(DefinitionError);
      expect(() => table(a, b)).toThrow(`endpoints["${a}"] and endpoints["${b}"]`);
    }
    // Different methods or shapes are not a conflict.
    expect(() => table('notes', 'notes.post', 'notes/[id]', 'notes/[*]')).not.toThrow();
  });

  it('EP-7: malformed keys are a DefinitionError naming the key (hostile corpus)', () => {
    for (const { key, reason } of HOSTILE_ENDPOINT_KEYS) {
      const attempt = () => table(key);
      expect(attempt, key).toThrow(DefinitionError);
      expect(attempt, key).toThrow(reason);
      expect(attempt, key).toThrow(`endpoints["${key}"]`);
    }
  });

  it("EP-1, EP-7: the registry compiles the application's endpoints and refuses what is not a definition", () => {
    const handler = () => Response.json({});
    const registry = new Registry({
      endpoints: { summary: defineThreadEndpoint(handler), 'notes/[id]': defineThreadEndpoint(handler) },
    });
    expect(registry.endpoints.routes.match('GET', '/notes/1')?.params).toEqual({ id: '1' });
    expect(registry.endpoints.byKey.get('summary')?.handler).toBe(handler);
    expect(() => new Registry({ endpoints: { summary: handler as never } })).toThrow(
      'endpoints["summary"] is not a defineThreadEndpoint() definition',
    );
    expect(() => new Registry({ endpoints: { 'a/[*]/b': defineThreadEndpoint(handler) } })).toThrow(DefinitionError);
  });

  it('EP-1: defineThreadEndpoint takes the plain handler or options and a handler, and checks them', () => {
    const handler = () => new Response('ok');
    expect(defineThreadEndpoint(handler)).toMatchObject({ kind: 'thread_endpoint', handler });
    expect(defineThreadEndpoint({ summary: 'One line' }, handler)).toMatchObject({ summary: 'One line', handler });
    expect(() => defineThreadEndpoint(undefined as never)).toThrow(DefinitionError);
    expect(() => defineThreadEndpoint({ body: { type: 'object' } as never }, handler)).toThrow(
      '"body" must be a zod schema',
    );
    expect(() => defineThreadEndpoint({ summary: 3 as never }, handler)).toThrow('"summary" must be a string');
  });
});
