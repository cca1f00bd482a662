/**
 * Requests to the Worker under test through its own fetch handler, with bindings of the test's
 * choosing: by default the test bindings plus a bootstrap `ADMIN_KEY`, which issues the keys the
 * identity tests sign in with (workerd only).
 */
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../workers/worker.js';

const handler = worker as { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => Promise<Response> };

export const ADMIN_KEY = 'test-bootstrap-admin-key';
export const adminEnv = { ...env, ADMIN_KEY };

/** A request with `token` as its bearer credential (none when null) and `json` as its body. */
export function call(
  path: string,
  token: string | null,
  init: RequestInit & { json?: unknown } = {},
  bindings: unknown = adminEnv,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const request = new Request(`https://runtime.test${path}`, { ...init, headers, body });
  return handler.fetch(request, bindings, createExecutionContext());
}
