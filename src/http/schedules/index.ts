/**
 * Schedules over HTTP: a thread's own (`/api/threads/:id/schedules`) and a tenant's thread-starting
 * ones (`/api/schedules`). Keeping and firing them is thread/schedules'.
 */

export { tenantScheduleRoutes } from './tenant-schedule-routes.js';
export { threadScheduleRoutes } from './thread-schedule-routes.js';
