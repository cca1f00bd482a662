/**
 * A tenant's thread-starting schedules: `POST /api/schedules` makes one (the agent, a cron expression
 * in a time zone or a one-off time, the first message), and each tick starts a new thread of that
 * agent owned by the maker; `GET` lists the caller's (an admin: the tenant's), `PATCH` pauses or
 * resumes, `DELETE` removes. The Tenant object keeps and fires them: without the TENANTS binding,
 * 501 `not_configured`.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Registry } from '../../engine/registry/index.js';
import { missingVariables } from '../../spec/internal.js';
import type { Principal } from '../../thread/access/index.js';
import type { RpcResult, RuntimeEnv, TenantScheduleView } from '../../thread/bindings/index.js';
import { tenantStub } from '../../thread/tenancy/index.js';
import { AUTH_FAILURES, failure, HttpError, json, jsonBody, jsonRequest, routeApp, unwrap } from '../contract/index.js';
import {
  CreateTenantScheduleBody,
  TenantScheduleListSchema,
  TenantScheduleParams,
  TenantScheduleSchema,
  UpdateScheduleBody,
} from './schedule-schemas.js';
import { INVALID_SCHEDULE } from './thread-schedule-routes.js';

const FAILURES = {
  ...AUTH_FAILURES,
  501: failure('`not_configured`: the Worker has no TENANTS binding, which keeps tenant schedules'),
} as const;
const NOT_FOUND = failure('`schedule_not_found`: no such schedule of yours');

function schedulerOf(env: RuntimeEnv, principal: Principal) {
  const stub = tenantStub(env, principal.tenant);
  if (!stub) {
    throw new HttpError({
      status: 501,
      code: 'not_configured',
      message:
        'tenant schedules need the TENANTS Durable Object binding (wrangler.toml), which this Worker does not have',
    });
  }
  return stub;
}

/** The agent must exist and need no variable the schedule cannot give. */
function checkAgent(registry: Registry, name: string): void {
  const agent = registry.agent(name);
  if (!agent) {
    throw new HttpError({ status: 400, code: 'unknown_agent', message: `no agent named "${name}"` });
  }
  const missing = missingVariables(registry.variablesFor(agent), {});
  if (missing.length > 0) {
    throw new HttpError({
      status: 400,
      code: 'missing_variables',
      message: `agent "${name}" requires variables a schedule cannot give: ${missing.join(', ')}`,
      details: { missing },
    });
  }
}

const createSchedule = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createSchedule',
  tags: ['schedules'],
  summary: 'Start a new thread of an agent on a cron expression, or once at a given time',
  middleware: [jsonBody()],
  request: { body: jsonRequest(CreateTenantScheduleBody) },
  responses: {
    201: json(TenantScheduleSchema, 'The schedule'),
    400: failure(`${INVALID_SCHEDULE.description}; \`unknown_agent\`, \`missing_variables\``),
    403: failure('`forbidden`: below the member role'),
    ...FAILURES,
  },
});

const listSchedules = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listSchedules',
  tags: ['schedules'],
  summary: "Your thread-starting schedules (an admin: the tenant's), oldest first",
  responses: { 200: json(TenantScheduleListSchema, 'The schedules'), ...FAILURES },
});

const updateSchedule = createRoute({
  method: 'patch',
  path: '/{scheduleId}',
  operationId: 'updateSchedule',
  tags: ['schedules'],
  summary: 'Pause or resume a thread-starting schedule',
  middleware: [jsonBody()],
  request: { params: TenantScheduleParams, body: jsonRequest(UpdateScheduleBody) },
  responses: { 200: json(TenantScheduleSchema, 'The schedule as changed'), 404: NOT_FOUND, ...FAILURES },
});

const deleteSchedule = createRoute({
  method: 'delete',
  path: '/{scheduleId}',
  operationId: 'deleteSchedule',
  tags: ['schedules'],
  summary: 'Delete a thread-starting schedule: it starts no more threads',
  request: { params: TenantScheduleParams },
  responses: { 200: json(TenantScheduleSchema, 'The schedule deleted'), 404: NOT_FOUND, ...FAILURES },
});

export function tenantScheduleRoutes(registry: Registry) {
  const app = routeApp();

  app.openapi(createSchedule, async (c) => {
    const principal = c.get('principal');
    const body = c.req.valid('json');
    const stub = schedulerOf(c.env, principal);
    checkAgent(registry, body.agent);
    const created = await stub.createSchedule(principal, body);
    return c.json(unwrap(created as RpcResult<TenantScheduleView>), 201);
  });

  app.openapi(listSchedules, async (c) => {
    const principal = c.get('principal');
    const listed = await schedulerOf(c.env, principal).listSchedules(principal);
    return c.json(listed as { schedules: TenantScheduleView[] }, 200);
  });

  app.openapi(updateSchedule, async (c) => {
    const principal = c.get('principal');
    const { scheduleId } = c.req.valid('param');
    const changed = await schedulerOf(c.env, principal).updateSchedule(
      principal,
      scheduleId,
      c.req.valid('json').paused,
    );
    return c.json(unwrap(changed as RpcResult<TenantScheduleView>), 200);
  });

  app.openapi(deleteSchedule, async (c) => {
    const principal = c.get('principal');
    const deleted = await schedulerOf(c.env, principal).deleteSchedule(principal, c.req.valid('param').scheduleId);
    return c.json(unwrap(deleted as RpcResult<TenantScheduleView>), 200);
  });

  return app;
}
