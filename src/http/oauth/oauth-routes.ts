/**
 * The OAuth routes (IDN-7), mounted at the app's root: the two discovery documents, the library's
 * token and registration endpoints, and the authorization page. Declared in the OpenAPI document
 * and served by plain handlers, since the library reads the bodies itself.
 */
import type { Context } from 'hono';
import { type HttpEnv, routeApp, serveDocumented } from '../contract/index.js';
import { answerAuthorization, type CredentialCheck, showAuthorization } from './authorize-route.js';
import {
  authorizationServerMetadata,
  mcpResourceMetadata,
  oauthAuthorizeAnswer,
  oauthAuthorizePage,
  oauthRegister,
  oauthToken,
  rootResourceMetadata,
} from './oauth-contract.js';
import { oauthSetup } from './oauth-setup.js';
import { protectedResourceMetadata } from './resource-metadata.js';

/** What the library answers itself: metadata, tokens, registrations. */
async function library(c: Context<HttpEnv>): Promise<Response> {
  const setup = await oauthSetup(c, 'json');
  if (setup instanceof Response) return setup;
  // The library is typed against another release of the Workers types; the context is the same object.
  const context = c.executionCtx as unknown as Parameters<typeof setup.server.fetch>[2];
  return setup.server.fetch(c.req.raw, setup.storage, context);
}

async function resourceMetadata(c: Context<HttpEnv>): Promise<Response> {
  const setup = await oauthSetup(c, 'json');
  if (setup instanceof Response) return setup;
  // Read by browser-based MCP clients on other origins too: public, and never cached stale.
  c.header('access-control-allow-origin', '*');
  c.header('cache-control', 'no-store');
  return c.json(protectedResourceMetadata(setup.origin));
}

/** `check` is the sign-in of every request, which the authorization page signs people in with. */
export function oauthRoutes(check: CredentialCheck) {
  const app = routeApp();
  serveDocumented(app, mcpResourceMetadata, resourceMetadata);
  serveDocumented(app, rootResourceMetadata, resourceMetadata);
  serveDocumented(app, authorizationServerMetadata, library);
  serveDocumented(app, oauthToken, library);
  serveDocumented(app, oauthRegister, library);
  serveDocumented(app, oauthAuthorizePage, showAuthorization);
  serveDocumented(app, oauthAuthorizeAnswer, (c) => answerAuthorization(c, check));
  return app;
}
