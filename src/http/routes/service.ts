/**
 * What the Worker says about itself (THR-5), without a key: `GET /` (its agents and where the rest
 * is), `GET /openapi.json` (the OpenAPI document, generated from the declared routes) and
 * `GET /docs` (an interactive reference of that document, rendered by Scalar: api-reference.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Registry } from '../../engine/registry/index.js';
import { json, routeApp, ServiceIndexSchema } from '../contract/index.js';
import { API_REFERENCE_PAGE, apiReferencePolicy } from './api-reference.js';

const serviceIndex = createRoute({
  method: 'get',
  path: '/',
  operationId: 'serviceIndex',
  tags: ['service'],
  summary: 'The service: its agents, and where the OpenAPI document and the MCP endpoint are',
  description: 'Asked for JSON (`Accept: application/json`), the index; a browser gets the inspector page.',
  security: [],
  responses: {
    200: {
      description: 'The service index, or the inspector page',
      content: {
        'application/json': { schema: ServiceIndexSchema },
        'text/html': { schema: z.string() },
      },
    },
  },
});

const getOpenApiDocument = createRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: ['service'],
  summary: 'This document',
  security: [],
  responses: {
    200: json(z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }), 'OpenAPI 3.1'),
  },
});

const apiReference = createRoute({
  method: 'get',
  path: '/docs',
  operationId: 'apiReference',
  tags: ['service'],
  summary: 'An interactive reference of this document',
  security: [],
  responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
});

export interface OpenApiDocumentBody {
  openapi: string;
  paths: Record<string, unknown>;
}

/** `document` gives the OpenAPI document of the whole app, for the server a request reached. */
export function serviceRoutes(registry: Registry, document: (serverUrl: string) => OpenApiDocumentBody) {
  const app = routeApp();
  app.openapi(serviceIndex, (c) =>
    c.json(
      {
        name: 'standard-agents-cloudflare',
        agents: [...registry.agents.keys()],
        openapi: '/openapi.json',
        mcp: '/mcp',
      },
      200,
    ),
  );
  app.openapi(getOpenApiDocument, (c) => c.json(document(new URL(c.req.url).origin), 200));
  app.openapi(apiReference, async (c) =>
    c.html(API_REFERENCE_PAGE, 200, {
      'content-security-policy': await apiReferencePolicy(new URL(c.req.url).origin),
    }),
  );
  return app;
}
