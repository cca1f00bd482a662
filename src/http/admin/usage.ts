/**
 * `GET /api/usage` (USE-1, USE-4, USE-5): what models cost, summed from the D1 usage index by user,
 * agent, model, UTC day or tenant over a range of days. Not for admins only: an admin reads its
 * tenant's usage, anyone else its own; the bootstrap admin key every tenant's.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { UsageIndex } from '../../thread/bindings/index.js';
import { AUTH_FAILURES, failure, json, routeApp } from '../contract/index.js';
import { usageQueryOf } from './usage-query.js';

const day = (what: string) =>
  z.string().optional().describe(`${what}: a UTC date, YYYY-MM-DD, inclusive`).openapi({ example: '2026-11-01' });

const UsageQuerySchema = z.object({
  group_by: z
    .string()
    .optional()
    .describe(
      'Comma-separated: `user`, `agent`, `model`, `day`, `tenant` (tenant: the bootstrap admin key only). ' +
        'None: one row of totals',
    )
    .openapi({ example: 'user,agent,model' }),
  from: day('The first day; default 29 days before `to`'),
  to: day('The last day; default today'),
  tenant: z.string().optional().describe('The bootstrap admin key only: one tenant instead of all'),
});

const numbers = {
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cached_tokens: z.number().int().describe('Input tokens served from a prompt cache (part of input_tokens)'),
  total_tokens: z.number().int(),
  cost_usd: z.number().describe("US dollars at the models' prices; a model without prices adds nothing"),
  steps: z.number().int().describe('Model steps (calls) counted'),
};

const UsageTotalsSchema = z.object(numbers).openapi('UsageReportTotals');

const UsageRowSchema = z
  .object({
    user: z.string().optional().describe("The thread owner's subject"),
    agent: z.string().optional(),
    model: z.string().optional().describe('The model definition'),
    day: z.string().optional().describe('YYYY-MM-DD, UTC'),
    tenant: z.string().optional(),
    ...numbers,
  })
  .openapi('UsageRow');

const UsageReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    group_by: z.array(z.enum(['user', 'agent', 'model', 'day', 'tenant'])),
    rows: z.array(UsageRowSchema).describe('One per value of the dimensions, dearest first'),
    totals: UsageTotalsSchema,
  })
  .openapi('UsageReport');

const getUsageRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getUsage',
  tags: ['usage'],
  summary: 'Model usage and cost by user, agent, model, day or tenant (an admin: the tenant; others: their own)',
  request: { query: UsageQuerySchema },
  responses: {
    200: json(UsageReportSchema, 'The sums, dearest first, and their totals'),
    400: failure('`invalid_usage_query`: group_by, from or to is not valid; the message names it'),
    403: failure('`forbidden`: another tenant, named by a key other than the bootstrap admin key'),
    ...AUTH_FAILURES,
  },
});

export function usageRoutes() {
  const app = routeApp();
  app.openapi(getUsageRoute, async (c) => {
    const query = usageQueryOf(c.get('principal'), c.req.valid('query'));
    const report = await new UsageIndex(c.env.DB).report(query);
    return c.json({ from: query.from, to: query.to, group_by: [...query.groupBy], ...report }, 200);
  });
  return app;
}
