/**
 * The schedule routes' schemas: a new schedule (a thread's, or a tenant's thread-starting one), the
 * pause switch, and a schedule as listed. Cron expressions, zones, times and the `missed` and
 * `on_busy` values are plain strings here: the object that keeps the schedule checks them and
 * answers the code naming the field (`invalid_cron`, `invalid_timezone`, `invalid_at`,
 * `invalid_missed`, `invalid_on_busy`).
 */
import { z } from '@hono/zod-openapi';
import { ThreadParams } from '../contract/index.js';

const scheduleFields = {
  name: z.string().max(100).optional().describe('A name to find it by: letters, digits, spaces and _ . : -'),
  cron: z
    .string()
    .max(200)
    .optional()
    .describe(
      'A cron expression, five fields (minute precision) or six (the first is seconds); exactly one of cron and at',
    ),
  at: z
    .union([z.number(), z.string().max(64)])
    .optional()
    .describe('A one-off time: ms since the epoch or an ISO 8601 date; not in the past'),
  timezone: z.string().max(100).optional().describe('The IANA time zone the cron expression is read in; default UTC'),
  message: z.string().min(1).max(32_000).describe('The user message posted when it fires'),
  missed: z
    .string()
    .max(32)
    .optional()
    .describe(
      'A tick missed while the runtime was down: `run_once` (the default) fires it once on wake-up, `skip` skips it',
    ),
  on_busy: z
    .string()
    .max(32)
    .optional()
    .describe(
      "What the message does if a turn is running: enqueue, reject, interrupt or rollback; default the agent's",
    ),
  paused: z.boolean().optional().describe('Made paused: it fires once resumed'),
};

export const CreateScheduleBody = z.object(scheduleFields).strict().openapi('CreateScheduleBody');

export const CreateTenantScheduleBody = z
  .object({
    ...scheduleFields,
    agent: z.string().min(1).max(256).describe('The agent of the thread each tick starts'),
    tags: z.array(z.string().min(1).max(128)).max(64).optional().describe("The started threads' tags"),
    shared: z.boolean().optional().describe("The started threads are visible to the maker's whole tenant"),
  })
  .strict()
  .openapi('CreateTenantScheduleBody');

export const UpdateScheduleBody = z
  .object({ paused: z.boolean().describe('true pauses it; false resumes it from its next tick after now') })
  .strict()
  .openapi('UpdateScheduleBody');

export const ScheduleSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    source: z.enum(['agent', 'api']).describe("`agent`: from the agent's definition; `api`: made through the API"),
    cron: z.string().nullable(),
    at: z.number().nullable().describe('A one-off time, ms since the epoch'),
    timezone: z.string(),
    message: z.string(),
    missed: z.enum(['run_once', 'skip']),
    on_busy: z.enum(['enqueue', 'reject', 'interrupt', 'rollback']).nullable(),
    paused: z.boolean(),
    next_at: z.number().nullable().describe('The next tick, ms since the epoch; null once a one-off has fired'),
    last_tick: z.number().nullable().describe('The last tick fired or skipped'),
    last_fired_at: z.number().nullable().describe('When it last fired'),
    fired_count: z.number().int(),
    last_outcome: z
      .string()
      .nullable()
      .describe('What the last tick did: `fired`, `skipped: missed`, `refused: <code>`, `failed: <code>`'),
    created_at: z.number(),
    created_by: z.string().nullable().describe("Who made it; null for an agent's"),
  })
  .openapi('Schedule');

export const TenantScheduleSchema = ScheduleSchema.extend({
  agent: z.string(),
  tags: z.array(z.string()),
  shared: z.boolean(),
  last_thread_id: z.string().nullable().describe('The thread its last tick started'),
}).openapi('TenantSchedule');

export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) }).openapi('ScheduleList');
export const TenantScheduleListSchema = z
  .object({ schedules: z.array(TenantScheduleSchema) })
  .openapi('TenantScheduleList');

const scheduleId = z
  .string()
  .min(1)
  .max(64)
  .openapi({ param: { name: 'scheduleId', in: 'path' } });
export const ThreadScheduleParams = ThreadParams.extend({ scheduleId });
export const TenantScheduleParams = z.object({ scheduleId });
