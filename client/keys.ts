/**
 * API keys, for admins: making a key (its secret shown in that answer only), listing the tenant's
 * keys, rotating, renaming or changing the role of one, and revoking it. Each change takes effect on
 * the key's next request and is written to the audit log.
 */
import { expectOk, type TypedApi } from './http.js';
import type { ApiKey, ApiKeyPage, CreateKeyBody, IssuedApiKey, ListKeysQuery, UpdateKeyBody } from './resources.js';

export interface KeyCalls {
  /** `POST /api/keys` (201): the new key; its `key` is never shown again, so store it now. */
  create(body: CreateKeyBody): Promise<IssuedApiKey>;
  /** `GET /api/keys`: the tenant's keys, newest first, revoked ones included, never their secrets. */
  list(query?: ListKeysQuery): Promise<ApiKeyPage>;
  /** `POST /api/keys/:id/rotate` (201): a new key like the old one, which is revoked at once. */
  rotate(id: string): Promise<IssuedApiKey>;
  /** `PATCH /api/keys/:id`: a new role or name (`name: null` removes it). */
  update(id: string, body: UpdateKeyBody): Promise<ApiKey>;
  /** `DELETE /api/keys/:id`: revokes the key; revoking a revoked key changes nothing. */
  revoke(id: string): Promise<ApiKey>;
}

export function keyCalls(api: TypedApi): KeyCalls {
  const path = (id: string) => ({ path: { id } });
  return {
    create: (body) => expectOk(api.POST('/api/keys', { body })),
    list: (query) => expectOk(api.GET('/api/keys', { params: { query } })),
    rotate: (id) => expectOk(api.POST('/api/keys/{id}/rotate', { params: path(id) })),
    update: (id, body) => expectOk(api.PATCH('/api/keys/{id}', { params: path(id), body })),
    revoke: (id) => expectOk(api.DELETE('/api/keys/{id}', { params: path(id) })),
  };
}
