/**
 * The key routes (IDN-2): an admin makes, lists, rotates, revokes and changes its tenant's API keys.
 * A key is shown once, in the answer that makes it; every change goes to the tenant's audit log with
 * the admin who made it. Another tenant's key is answered like a key that does not exist.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Principal } from '../../thread/access/index.js';
import { appendAudit } from '../../thread/audit/index.js';
import { type ApiKeyListing, ApiKeyStore, InvalidKeyCursor, KEY_ID_PATTERN } from '../../thread/keys/index.js';
import { keyChanged } from '../../thread/tenancy/index.js';
import { AUTH_FAILURES, failure, HttpError, json, jsonBody, jsonRequest, routeApp } from '../contract/index.js';
import { ADMIN_ONLY, actsOnTenant, adminOnly, auditActor, namedTenant } from './admin-scope.js';
import {
  ApiKeyListSchema,
  ApiKeyParams,
  ApiKeySchema,
  CreateApiKeyBody,
  IssuedApiKeySchema,
  ListApiKeysQuery,
  UpdateApiKeyBody,
} from './api-key-schemas.js';

const KEY_NOT_FOUND = failure('`key_not_found`: no such key in your tenant');
const BODY_FAILURES = {
  400: failure('`invalid_request` or `invalid_json`: nothing is changed'),
  413: failure('`body_too_large`: JSON bodies are limited to 1 MiB'),
};

const createApiKey = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createApiKey',
  tags: ['keys'],
  summary: 'Make an API key; the answer shows the key itself, once',
  middleware: [jsonBody()],
  request: { body: jsonRequest(CreateApiKeyBody) },
  responses: {
    201: json(IssuedApiKeySchema, 'The new key: store `key` now, it is never shown again'),
    ...BODY_FAILURES,
    403: ADMIN_ONLY,
    ...AUTH_FAILURES,
  },
});

const listApiKeys = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listApiKeys',
  tags: ['keys'],
  summary: "The tenant's keys, newest first, revoked ones included; never a key's secret",
  request: { query: ListApiKeysQuery },
  responses: {
    200: json(ApiKeyListSchema, 'A page of keys'),
    400: failure('`invalid_request`: a query parameter or the cursor is not valid'),
    403: ADMIN_ONLY,
    ...AUTH_FAILURES,
  },
});

const rotateApiKey = createRoute({
  method: 'post',
  path: '/{id}/rotate',
  operationId: 'rotateApiKey',
  tags: ['keys'],
  summary: 'A new key with the same tenant, subject, role, name and expiry; the old one is revoked at once',
  request: { params: ApiKeyParams },
  responses: {
    201: json(IssuedApiKeySchema, 'The new key: store `key` now, it is never shown again'),
    403: ADMIN_ONLY,
    404: KEY_NOT_FOUND,
    409: failure('`key_revoked`: the key is revoked already, so there is nothing to rotate'),
    ...AUTH_FAILURES,
  },
});

const revokeApiKey = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'revokeApiKey',
  tags: ['keys'],
  summary: 'Revoke a key: the next request made with it is refused (`key_revoked`); revoking again changes nothing',
  request: { params: ApiKeyParams },
  responses: { 200: json(ApiKeySchema, 'The revoked key'), 403: ADMIN_ONLY, 404: KEY_NOT_FOUND, ...AUTH_FAILURES },
});

const updateApiKey = createRoute({
  method: 'patch',
  path: '/{id}',
  operationId: 'updateApiKey',
  tags: ['keys'],
  summary: "Change a key's role or name",
  middleware: [jsonBody()],
  request: { params: ApiKeyParams, body: jsonRequest(UpdateApiKeyBody) },
  responses: {
    200: json(ApiKeySchema, 'The key after the change'),
    ...BODY_FAILURES,
    403: ADMIN_ONLY,
    404: KEY_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

/** Milliseconds since the epoch from either accepted form. */
function epochMs(value: number | string | undefined): number | null {
  if (value === undefined) return null;
  return typeof value === 'number' ? value : Date.parse(value);
}

/** The key `id` names, when the principal may act on its tenant; 404 otherwise, as for no key at all. */
async function visibleKey(store: ApiKeyStore, principal: Principal, id: string): Promise<ApiKeyListing> {
  const listing = KEY_ID_PATTERN.test(id) ? await store.listing(id) : null;
  if (!listing || !actsOnTenant(principal, listing.tenant)) {
    throw new HttpError({ status: 404, code: 'key_not_found', message: 'no such key' });
  }
  return listing;
}

/** An answer holding a key is kept by no cache on the way. */
const NO_STORE = { 'Cache-Control': 'no-store' };

export function apiKeyRoutes() {
  const app = routeApp();
  app.use('*', adminOnly());

  app.openapi(createApiKey, async (c) => {
    const body = c.req.valid('json');
    const principal = c.get('principal');
    const tenant = namedTenant(principal, body.tenant);
    const { key, listing } = await new ApiKeyStore(c.env.DB).create({
      tenant,
      ...(body.subject !== undefined ? { subject: body.subject } : {}),
      role: body.role,
      name: body.name ?? null,
      expires_at: epochMs(body.expires_at),
      created_by: principal.subject,
    });
    await appendAudit(c.env.DB, {
      tenant,
      actor: auditActor(principal),
      action: 'key.created',
      target: listing.id,
      detail: { prefix: listing.prefix, subject: listing.subject, role: listing.role, expires_at: listing.expires_at },
    });
    return c.json({ ...listing, key }, 201, NO_STORE);
  });

  app.openapi(listApiKeys, async (c) => {
    const { limit, after, tenant } = c.req.valid('query');
    const principal = c.get('principal');
    try {
      const page = await new ApiKeyStore(c.env.DB).list(namedTenant(principal, tenant), { limit, after });
      return c.json(page, 200);
    } catch (error) {
      if (!(error instanceof InvalidKeyCursor)) throw error;
      throw new HttpError({ status: 400, code: 'invalid_request', message: error.message });
    }
  });

  app.openapi(rotateApiKey, async (c) => {
    const principal = c.get('principal');
    const store = new ApiKeyStore(c.env.DB);
    const old = await visibleKey(store, principal, c.req.valid('param').id);
    const rotated = await store.rotate(old.id, principal.subject);
    await keyChanged(c.env, old.tenant, old.id);
    if (!rotated) {
      throw new HttpError({
        status: 409,
        code: 'key_revoked',
        message: `${old.prefix} is revoked: there is nothing to rotate`,
      });
    }
    await appendAudit(c.env.DB, {
      tenant: old.tenant,
      actor: auditActor(principal),
      action: 'key.rotated',
      target: old.id,
      detail: { prefix: old.prefix, replaced_by: rotated.listing.id },
    });
    return c.json({ ...rotated.listing, key: rotated.key }, 201, NO_STORE);
  });

  app.openapi(revokeApiKey, async (c) => {
    const principal = c.get('principal');
    const store = new ApiKeyStore(c.env.DB);
    const key = await visibleKey(store, principal, c.req.valid('param').id);
    const revoked = (await store.revoke(key.id)) ?? key;
    await keyChanged(c.env, key.tenant, key.id);
    // Revoking a revoked key changes nothing, so the log has nothing to add.
    if (key.revoked_at === null) {
      await appendAudit(c.env.DB, {
        tenant: key.tenant,
        actor: auditActor(principal),
        action: 'key.revoked',
        target: key.id,
        detail: { prefix: key.prefix },
      });
    }
    return c.json(revoked, 200);
  });

  app.openapi(updateApiKey, async (c) => {
    const principal = c.get('principal');
    const change = c.req.valid('json');
    const store = new ApiKeyStore(c.env.DB);
    const key = await visibleKey(store, principal, c.req.valid('param').id);
    const updated = (await store.update(key.id, change)) ?? key;
    await keyChanged(c.env, key.tenant, key.id);
    const audit = { tenant: key.tenant, actor: auditActor(principal), target: key.id } as const;
    if (change.role !== undefined && change.role !== key.role) {
      await appendAudit(c.env.DB, {
        ...audit,
        action: 'key.role_changed',
        detail: { from: key.role, to: change.role },
      });
    }
    if (change.name !== undefined && change.name !== key.name) {
      await appendAudit(c.env.DB, { ...audit, action: 'key.renamed', detail: { from: key.name, to: change.name } });
    }
    return c.json(updated, 200);
  });

  return app;
}
