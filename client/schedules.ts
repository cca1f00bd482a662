/**
 * Schedules: a thread's own (messages posted to it on a cron expression or once), and the tenant's
 * thread-starting ones (each tick starts a new thread of an agent). Made, listed, paused, resumed and
 * deleted.
 */
import { expectOk, type TypedApi } from './http.js';
import type {
  CreateScheduleBody,
  CreateTenantScheduleBody,
  Schedule,
  ScheduleList,
  TenantSchedule,
  TenantScheduleList,
} from './resources.js';

export interface ThreadScheduleCalls {
  /** `POST /api/threads/:id/schedules`: ApiError 400 `invalid_cron`, `invalid_timezone`, `invalid_at`, ... */
  create(threadId: string, body: CreateScheduleBody): Promise<Schedule>;
  /** `GET /api/threads/:id/schedules`: its agent's and those made through the API, oldest first. */
  list(threadId: string): Promise<ScheduleList>;
  /** `PATCH /api/threads/:id/schedules/:scheduleId` `{ paused }`: a resumed one fires from its next tick after now. */
  setPaused(threadId: string, scheduleId: string, paused: boolean): Promise<Schedule>;
  /** `DELETE /api/threads/:id/schedules/:scheduleId`. */
  delete(threadId: string, scheduleId: string): Promise<Schedule>;
}

export interface TenantScheduleCalls {
  /** `POST /api/schedules`: each tick starts a new thread of `agent`, owned by you. */
  create(body: CreateTenantScheduleBody): Promise<TenantSchedule>;
  /** `GET /api/schedules`: yours (an admin: the tenant's). */
  list(): Promise<TenantScheduleList>;
  setPaused(scheduleId: string, paused: boolean): Promise<TenantSchedule>;
  delete(scheduleId: string): Promise<TenantSchedule>;
}

export function threadScheduleCalls(api: TypedApi): ThreadScheduleCalls {
  const one = (threadId: string, scheduleId: string) => ({ params: { path: { id: threadId, scheduleId } } });
  return {
    create: (threadId, body) =>
      expectOk(api.POST('/api/threads/{id}/schedules', { params: { path: { id: threadId } }, body })),
    list: (threadId) => expectOk(api.GET('/api/threads/{id}/schedules', { params: { path: { id: threadId } } })),
    setPaused: (threadId, scheduleId, paused) =>
      expectOk(
        api.PATCH('/api/threads/{id}/schedules/{scheduleId}', { ...one(threadId, scheduleId), body: { paused } }),
      ),
    delete: (threadId, scheduleId) =>
      expectOk(api.DELETE('/api/threads/{id}/schedules/{scheduleId}', one(threadId, scheduleId))),
  };
}

export function tenantScheduleCalls(api: TypedApi): TenantScheduleCalls {
  const one = (scheduleId: string) => ({ params: { path: { scheduleId } } });
  return {
    create: (body) => expectOk(api.POST('/api/schedules', { body })),
    list: () => expectOk(api.GET('/api/schedules')),
    setPaused: (scheduleId, paused) =>
      expectOk(api.PATCH('/api/schedules/{scheduleId}', { ...one(scheduleId), body: { paused } })),
    delete: (scheduleId) => expectOk(api.DELETE('/api/schedules/{scheduleId}', one(scheduleId))),
  };
}
