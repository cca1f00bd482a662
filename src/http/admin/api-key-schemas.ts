/**
 * The shapes of the key and audit routes (IDN-2, IDN-8): what an admin sends to make, change and list
 * keys and read the audit log, and what comes back. A key's secret appears in one schema only, the
 * answer that makes a key; listings and the log never hold it.
 */
import { z } from '@hono/zod-openapi';
import { invisibleCharacterIn } from '../../engine/files/index.js';
import { ROLES } from '../../thread/access/index.js';
import { AUDIT_ACTIONS } from '../../thread/audit/index.js';

/** A tenant or subject id: what the JWT settings accept as a tenant, printable and safe in a header. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
/** The latest time accepted: the last millisecond of the year 9999. */
const LATEST_MS = 253_402_300_799_999;
const MAX_NAME_LENGTH = 100;

/** Control characters and line breaks: a name is shown in listings and logs, on one line. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

const RoleSchema = z.enum(ROLES).describe('viewer < member < approver < admin');

const tenantId = z
  .string()
  .regex(ID_PATTERN, 'letters, digits and . _ : @ -, at most 128, starting with a letter or digit');

const keyName = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .refine((name) => !CONTROL.test(name), 'a name holds no control characters')
  .refine((name) => invisibleCharacterIn(name) === null, 'a name holds no invisible characters')
  .describe('What the key is for, for people reading the list');

/** An integer of a query string, documented by hand (see schemas.ts). */
function queryInteger(min: number, max: number, fallback: number) {
  return z.coerce
    .number()
    .int()
    .min(min)
    .max(max)
    .default(fallback)
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
}

export const CreateApiKeyBody = z
  .object({
    name: keyName.optional(),
    role: RoleSchema,
    subject: tenantId.optional().describe('Who the key signs in as; `key_<id>` when left out'),
    expires_at: z
      .union([z.number().int().min(0).max(LATEST_MS), z.iso.datetime({ offset: true })])
      .optional()
      .describe('When the key stops working: an ISO 8601 time or milliseconds since the epoch; never when left out'),
    tenant: tenantId
      .optional()
      .describe("The key's tenant; only the bootstrap admin key may name another tenant than its own"),
  })
  .strict()
  .openapi('CreateApiKeyBody');

export const UpdateApiKeyBody = z
  .object({ role: RoleSchema.optional(), name: keyName.nullable().optional() })
  .strict()
  .openapi('UpdateApiKeyBody');

export const ApiKeyParams = z.object({
  id: z
    .string()
    .openapi({ param: { name: 'id', in: 'path' }, description: "The key's id (`sak_<id>` without `sak_`)" }),
});

export const ListApiKeysQuery = z
  .object({
    limit: queryInteger(1, 200, 50),
    after: z.string().min(1).max(128).optional().describe('`next` of the page before'),
    tenant: tenantId.optional().describe('Another tenant: the bootstrap admin key only'),
  })
  .strict();

export const ListAuditQuery = ListApiKeysQuery;

export const ApiKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string().describe('`sak_<id>`: how the key is recognised; the secret is never shown again'),
    tenant: z.string(),
    subject: z.string(),
    role: RoleSchema,
    name: z.string().nullable(),
    created_at: z.number().describe('Milliseconds since the epoch, as every time here'),
    created_by: z.string().describe('The subject that made the key'),
    last_used_at: z.number().nullable().describe('Recorded at most once a minute'),
    expires_at: z.number().nullable(),
    revoked_at: z.number().nullable(),
    replaced_by: z.string().nullable().describe('The key a rotation made in its place'),
  })
  .openapi('ApiKey');

export const IssuedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The key itself: shown in this answer only, store it now'),
}).openapi('IssuedApiKey');

export const ApiKeyListSchema = z
  .object({ keys: z.array(ApiKeySchema), next: z.string().nullable() })
  .openapi('ApiKeyList');

export const AuditPageSchema = z
  .object({
    entries: z.array(
      z.object({
        id: z.number(),
        tenant: z.string(),
        at: z.number().describe('Milliseconds since the epoch'),
        actor: z.object({ subject: z.string(), role: RoleSchema, via: z.string().describe('How the actor signed in') }),
        action: z.enum(AUDIT_ACTIONS),
        target: z.string().nullable().describe('What changed: a key id, a thread id...'),
        detail: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
    next: z.string().nullable().describe('The cursor of the next, older page'),
  })
  .openapi('AuditPage');
