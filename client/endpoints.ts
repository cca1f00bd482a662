/**
 * The application's thread endpoints (`defineThreadEndpoint`, beneath `/api/threads/<id>/`): their
 * paths, bodies and answers are the application's own, not the runtime's, so the calls are generic:
 * `fetch` under the thread with the key, an ApiError for any answer that is not 2xx.
 */
import { rawRequest } from './http.js';
import type { Platform } from './options.js';

export interface EndpointCalls {
  /**
   * Calls the endpoint at `path` below thread `id` (`'summary'`, `'notes/42'`; a query may follow):
   * its Response, body unread.
   */
  call(id: string, path: string, init?: RequestInit): Promise<Response>;
  /** The same with a JSON body when `body` is given (a POST unless `init.method` says otherwise), reading a JSON answer. */
  json<T = unknown>(id: string, path: string, body?: unknown, init?: RequestInit): Promise<T>;
}

/** `/api/threads/<id>/<path>`: the id encoded, the path as given (its segments are the endpoint's). */
export function endpointPath(id: string, path: string): string {
  return `/api/threads/${encodeURIComponent(id)}/${path.replace(/^\/+/, '')}`;
}

export function endpointCalls(platform: Platform): EndpointCalls {
  const call = (id: string, path: string, init: RequestInit = {}) => rawRequest(platform, endpointPath(id, path), init);
  return {
    call,
    json: async <T>(id: string, path: string, body?: unknown, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('accept', 'application/json');
      if (body !== undefined) headers.set('content-type', 'application/json');
      const sent: RequestInit =
        body === undefined ? { ...init, headers } : { method: 'POST', ...init, headers, body: JSON.stringify(body) };
      return (await (await call(id, path, sent)).json()) as T;
    },
  };
}
