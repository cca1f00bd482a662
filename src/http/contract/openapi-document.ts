/**
 * The OpenAPI 3.1 document (THR-5), generated from the declared routes: every route's request and
 * response schemas, the bearer security scheme (THR-6), and the server the request reached. It is
 * built once per app and served with the server filled in per request.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { HttpEnv } from './http-env.js';

type Document = ReturnType<OpenAPIHono<HttpEnv>['getOpenAPI31Document']>;

const built = new WeakMap<OpenAPIHono<HttpEnv>, Document>();

const INFO = {
  title: 'Standard Agents runtime for Cloudflare Workers',
  version: '0.1.0',
  description:
    'Threads are Durable Objects: create them, post messages, answer what they wait for, and watch their ' +
    'numbered frames over a WebSocket (`/stream`) or Server-Sent Events (`/events`). Every `/api` route and ' +
    '`/mcp` take `Authorization: Bearer <key>`; each key is one user and sees only its own threads.',
};

/** Declares the bearer scheme; call once, on the app whose document is served. */
export function declareBearerAuth(app: OpenAPIHono<HttpEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from API_KEYS',
  });
}

export function openApiDocument(
  app: OpenAPIHono<HttpEnv>,
  serverUrl: string,
): Document & { paths: NonNullable<Document['paths']> } {
  let document = built.get(app);
  if (!document) {
    document = app.getOpenAPI31Document({ openapi: '3.1.0', info: INFO, security: [{ bearer: [] }] });
    built.set(app, document);
  }
  return { ...document, paths: document.paths ?? {}, servers: [{ url: serverUrl }] };
}
