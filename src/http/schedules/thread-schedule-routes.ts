/**
 * A thread's schedules: `POST /api/threads/:id/schedules` makes one (a cron expression in a time zone,
 * or a one-off time, and the message to post), `GET` lists them with their next and last ticks,
 * `PATCH .../:scheduleId` pauses or resumes one and `DELETE` removes it. Reading takes the thread's
 * read access, the rest its write access, like every thread route; the thread checks the schedule.
 */
import { createRoute } from '@hono/zod-openapi';
import type { RpcResult, ScheduleView } from '../../thread/bindings/index.js';
import { threadStub } from '../../thread/bindings/index.js';
import {
  AUTH_FAILURES,
  failure,
  json,
  jsonBody,
  jsonRequest,
  routeApp,
  THREAD_NOT_FOUND,
  ThreadParams,
  unwrap,
} from '../contract/index.js';
import {
  CreateScheduleBody,
  ScheduleListSchema,
  ScheduleSchema,
  ThreadScheduleParams,
  UpdateScheduleBody,
} from './schedule-schemas.js';

export const INVALID_SCHEDULE = failure(
  '`invalid_cron` (does not parse, never fires, fires more often than the minimum interval, or not exactly one of cron and at), `invalid_timezone`, `invalid_at` (not a date, or past), `invalid_missed`, `invalid_on_busy`, `too_many_schedules`, `invalid_request`; nothing is stored',
);
const NOT_FOUND = failure('`thread_not_found`, or `schedule_not_found`: the thread has no such schedule');
const WRITE_REFUSED = failure('`forbidden`: this role may not change the thread');

const createThreadSchedule = createRoute({
  method: 'post',
  path: '/{id}/schedules',
  operationId: 'createThreadSchedule',
  tags: ['schedules'],
  summary: 'Post a message to the thread on a cron expression, or once at a given time',
  middleware: [jsonBody()],
  request: { params: ThreadParams, body: jsonRequest(CreateScheduleBody) },
  responses: {
    201: json(ScheduleSchema, 'The schedule'),
    400: INVALID_SCHEDULE,
    403: WRITE_REFUSED,
    404: THREAD_NOT_FOUND,
    409: failure('`thread_terminated`: a terminated thread takes no schedules'),
    ...AUTH_FAILURES,
  },
});

const listThreadSchedules = createRoute({
  method: 'get',
  path: '/{id}/schedules',
  operationId: 'listThreadSchedules',
  tags: ['schedules'],
  summary: "The thread's schedules (its agent's and those made through the API), oldest first",
  request: { params: ThreadParams },
  responses: {
    200: json(ScheduleListSchema, 'The schedules'),
    403: failure('`forbidden`: this role may not read the thread'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

const updateThreadSchedule = createRoute({
  method: 'patch',
  path: '/{id}/schedules/{scheduleId}',
  operationId: 'updateThreadSchedule',
  tags: ['schedules'],
  summary: 'Pause or resume a schedule; a resumed one fires from its next tick after now',
  middleware: [jsonBody()],
  request: { params: ThreadScheduleParams, body: jsonRequest(UpdateScheduleBody) },
  responses: {
    200: json(ScheduleSchema, 'The schedule as changed'),
    403: WRITE_REFUSED,
    404: NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

const deleteThreadSchedule = createRoute({
  method: 'delete',
  path: '/{id}/schedules/{scheduleId}',
  operationId: 'deleteThreadSchedule',
  tags: ['schedules'],
  summary: 'Delete a schedule: it fires no more',
  request: { params: ThreadScheduleParams },
  responses: {
    200: json(ScheduleSchema, 'The schedule deleted'),
    403: WRITE_REFUSED,
    404: NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

export function threadScheduleRoutes() {
  const app = routeApp();

  app.openapi(createThreadSchedule, async (c) => {
    const { id } = c.req.valid('param');
    const created = await threadStub(c.env, id).createSchedule(c.get('principal'), id, c.req.valid('json'));
    return c.json(unwrap(created as RpcResult<ScheduleView>), 201);
  });

  app.openapi(listThreadSchedules, async (c) => {
    const { id } = c.req.valid('param');
    const listed = await threadStub(c.env, id).listSchedules(c.get('principal'), id);
    return c.json(unwrap(listed as RpcResult<{ schedules: ScheduleView[] }>), 200);
  });

  app.openapi(updateThreadSchedule, async (c) => {
    const { id, scheduleId } = c.req.valid('param');
    const { paused } = c.req.valid('json');
    const changed = await threadStub(c.env, id).updateSchedule(c.get('principal'), id, scheduleId, paused);
    return c.json(unwrap(changed as RpcResult<ScheduleView>), 200);
  });

  app.openapi(deleteThreadSchedule, async (c) => {
    const { id, scheduleId } = c.req.valid('param');
    const deleted = await threadStub(c.env, id).deleteSchedule(c.get('principal'), id, scheduleId);
    return c.json(unwrap(deleted as RpcResult<ScheduleView>), 200);
  });

  return app;
}
