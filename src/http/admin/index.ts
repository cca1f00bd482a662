/**
 * The admin routes (IDN-2, IDN-5, IDN-8): API keys as data, tenants' limits, the audit log and the cost report
 * (USE-1, which every role reads for itself), and what every admin-only
 * route shares — only admins reach it, and each acts on its own tenant unless it signed in with the
 * bootstrap admin key.
 */
export { ADMIN_ONLY, actsOnTenant, adminOnly, auditActor, namedTenant } from './admin-scope.js';
export { apiKeyRoutes } from './api-keys.js';
export { auditRoutes } from './audit.js';
export { limitRoutes } from './limits.js';
export { usageRoutes } from './usage.js';
