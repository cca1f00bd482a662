/**
 * `GET` and `PUT /api/limits` (IDN-5, IDN-6): a tenant's rate limits and spend quotas, for its
 * admins. What applies is the Worker's defaults (`TENANT_LIMITS`) with the tenant's override laid
 * over them, field by field (`null`: unlimited); a change is in the audit log. An admin acts on its
 * own tenant; the bootstrap admin (`ADMIN_KEY`) on any, with `?tenant=`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { appendAudit } from '../../thread/audit/index.js';
import type { LimitsView, TenantLimits } from '../../thread/bindings/index.js';
import { CONFIG_TTL_MS, forgetLimits, normalLimits, tenantStub } from '../../thread/tenancy/index.js';
import {
  AUTH_FAILURES,
  failure,
  type HttpEnv,
  HttpError,
  json,
  jsonBody,
  jsonRequest,
  routeApp,
} from '../contract/index.js';
import { adminOnly, auditActor, namedTenant } from './admin-scope.js';

/** A tenant id as keys and JWT settings accept it. */
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

const count = (what: string) => z.number().int().min(0).nullable().optional().describe(`${what}; null: unlimited`);

const LimitSetSchema = z
  .object({
    requestsPerMinute: count('Requests admitted in any 60 seconds'),
    threadsPerHour: count('Threads started in any 60 minutes'),
    concurrentTurns: count('Turns running (or waiting for an answer) at once'),
    tokensPerDay: count('Model tokens, input and output, per UTC day'),
    costPerDay: z
      .number()
      .min(0)
      .nullable()
      .optional()
      .describe('Model cost in US dollars per UTC day; null: unlimited'),
  })
  .strict()
  .openapi('LimitSet');

const TenantLimitsSchema = z
  .object({
    tenant: LimitSetSchema.optional().describe('For the whole tenant'),
    principal: LimitSetSchema.optional().describe('For each key or signed-in user of the tenant'),
  })
  .strict()
  .openapi('TenantLimits');

const LimitsViewSchema = z
  .object({
    tenant: z.string(),
    defaults: TenantLimitsSchema.describe("The Worker's defaults (TENANT_LIMITS)"),
    // A union, not `.nullable()`: on a named schema that puts the null beside the reference in an
    // `allOf`, which no null matches, and the generated client type could never be read.
    override: z
      .union([TenantLimitsSchema, z.null()])
      .describe("The tenant's own, laid over the defaults field by field; null: none"),
    effective: TenantLimitsSchema.describe('What applies: a limit left out is unlimited'),
    propagation_seconds: z.number().describe('How long a change may take to reach every Worker isolate'),
  })
  .openapi('Limits');

const LimitsQuery = z.object({
  tenant: z
    .string()
    .regex(TENANT_ID, 'letters, digits and . _ : @ -, at most 128, starting with a letter or digit')
    .optional()
    .describe('Another tenant: the bootstrap admin (ADMIN_KEY) only'),
});

const LIMIT_FAILURES = {
  ...AUTH_FAILURES,
  403: failure('`forbidden`: only an admin of the tenant (or the bootstrap admin) sees and sets its limits'),
  503: failure(
    '`auth_not_configured`: no way of signing in is set; or `limits_not_configured`: the Worker has no TENANTS binding, so nothing is limited',
  ),
} as const;

const getLimits = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getLimits',
  tags: ['limits'],
  summary: "The tenant's rate limits and spend quotas: defaults, override and what applies",
  request: { query: LimitsQuery },
  responses: { 200: json(LimitsViewSchema, "The tenant's limits"), ...LIMIT_FAILURES },
});

const setLimits = createRoute({
  method: 'put',
  path: '/',
  operationId: 'setLimits',
  tags: ['limits'],
  summary: "Replace the tenant's override of the default limits (audited)",
  middleware: [jsonBody()],
  request: { query: LimitsQuery, body: jsonRequest(TenantLimitsSchema) },
  responses: {
    200: json(LimitsViewSchema, "The tenant's limits after the change"),
    400: failure('`invalid_request` or `invalid_json`: nothing is changed'),
    ...LIMIT_FAILURES,
  },
});

/** The tenant the request may act on (namedTenant: 403 for another's), and its object; 503 without one. */
function tenantOf(c: Context<HttpEnv>, asked: string | undefined) {
  const tenant = namedTenant(c.get('principal'), asked);
  const stub = tenantStub(c.env, tenant);
  if (!stub) {
    throw new HttpError({
      status: 503,
      code: 'limits_not_configured',
      message: 'the Worker has no TENANTS binding (wrangler.toml), so nothing is limited',
    });
  }
  return { tenant, stub };
}

function shown(view: LimitsView) {
  return { ...view, propagation_seconds: CONFIG_TTL_MS / 1000 };
}

export function limitRoutes() {
  const app = routeApp();
  app.use('*', adminOnly());

  app.openapi(getLimits, async (c) => {
    const { tenant, stub } = tenantOf(c, c.req.valid('query').tenant);
    return c.json(shown(await stub.limits(tenant)), 200);
  });

  app.openapi(setLimits, async (c) => {
    const { tenant, stub } = tenantOf(c, c.req.valid('query').tenant);
    const override: TenantLimits = normalLimits(c.req.valid('json'));
    const before = await stub.limits(tenant);
    const after = await stub.setLimits(tenant, override);
    forgetLimits(tenant);
    await appendAudit(c.env.DB, {
      tenant,
      actor: auditActor(c.get('principal')),
      action: 'limits.changed',
      detail: { before: before.override, after: after.override },
    });
    return c.json(shown(after), 200);
  });

  return app;
}
