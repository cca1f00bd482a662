/**
 * The audit log route (IDN-8): an admin reads its tenant's log, newest first, a page at a time; the
 * bootstrap admin key may read any tenant's with `?tenant=`.
 */
import { createRoute } from '@hono/zod-openapi';
import { InvalidAuditCursor, listAudit } from '../../thread/audit/index.js';
import { AUTH_FAILURES, failure, HttpError, json, routeApp } from '../contract/index.js';
import { ADMIN_ONLY, adminOnly, namedTenant } from './admin-scope.js';
import { AuditPageSchema, ListAuditQuery } from './api-key-schemas.js';

const listAuditRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listAudit',
  tags: ['audit'],
  summary: "The tenant's audit log, newest first: who changed keys, roles and limits, who answered approvals",
  request: { query: ListAuditQuery },
  responses: {
    200: json(AuditPageSchema, 'A page of entries'),
    400: failure('`invalid_request`: a query parameter or the cursor is not valid'),
    403: ADMIN_ONLY,
    ...AUTH_FAILURES,
  },
});

export function auditRoutes() {
  const app = routeApp();
  app.use('*', adminOnly());
  app.openapi(listAuditRoute, async (c) => {
    const { limit, after, tenant } = c.req.valid('query');
    const named = namedTenant(c.get('principal'), tenant);
    try {
      return c.json(await listAudit(c.env.DB, named, { limit, after }), 200);
    } catch (error) {
      if (!(error instanceof InvalidAuditCursor)) throw error;
      throw new HttpError({ status: 400, code: 'invalid_request', message: error.message });
    }
  });
  return app;
}
