/**
 * A thread's scheduled effects (the Effects chapter): `GET /api/threads/:id/effects` lists those
 * waiting or running and the newest finished, with their status, error and times; `DELETE
 * /api/threads/:id/effects/:effectId` cancels one still waiting (404 unknown, 409 once it runs).
 * Reading takes the thread's read access, cancelling its write access, like every thread route.
 */
import { createRoute, z } from '@hono/zod-openapi';
// The stub's answer types lose `unknown` (the arguments) on the way through RPC's types: named again here.
import { type EffectView, type RpcResult, threadStub } from '../../thread/bindings/index.js';
import { AUTH_FAILURES, failure, json, routeApp, THREAD_NOT_FOUND, ThreadParams, unwrap } from '../contract/index.js';

const EffectSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ description: 'The effect, as registered: `send_digest` or `package/send_digest`' }),
    args: z.record(z.string(), z.unknown()).openapi({ description: 'Its arguments, as scheduled' }),
    status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']),
    scheduled_at: z.number().openapi({ description: 'When it is due, in ms since the epoch' }),
    created_at: z.number().openapi({ description: 'When it was scheduled, in ms since the epoch' }),
    started_at: z.number().nullable(),
    finished_at: z.number().nullable(),
    error: z.string().nullable().openapi({ description: 'Why it failed' }),
    attempts: z.number().int().openapi({ description: 'How many times a run was started' }),
  })
  .openapi('ScheduledEffect');

const EffectListSchema = z
  .object({ effects: z.array(EffectSchema) })
  .openapi('EffectList', { description: 'Waiting or running effects, then the newest 50 finished' });

const EffectParams = ThreadParams.extend({
  effectId: z.string().openapi({ param: { name: 'effectId', in: 'path' }, description: 'The effect id' }),
});

const listThreadEffects = createRoute({
  method: 'get',
  path: '/{id}/effects',
  operationId: 'listThreadEffects',
  tags: ['threads'],
  summary: "The thread's scheduled effects and the newest finished ones",
  request: { params: ThreadParams },
  responses: {
    200: json(EffectListSchema, 'The effects'),
    403: failure('`forbidden`: this role may not read the thread'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

const cancelThreadEffect = createRoute({
  method: 'delete',
  path: '/{id}/effects/{effectId}',
  operationId: 'cancelThreadEffect',
  tags: ['threads'],
  summary: 'Cancel a scheduled effect that has not started',
  request: { params: EffectParams },
  responses: {
    200: json(EffectSchema, 'The effect, cancelled'),
    403: failure('`forbidden`: this role may not change the thread'),
    404: failure('`thread_not_found`, or `effect_not_found`: the thread has no such effect'),
    409: failure('`effect_not_pending`: the effect is running or has finished'),
    ...AUTH_FAILURES,
  },
});

export function effectRoutes() {
  const app = routeApp();

  app.openapi(listThreadEffects, async (c) => {
    const { id } = c.req.valid('param');
    const listed = await threadStub(c.env, id).listEffects(c.get('principal'), id);
    return c.json(unwrap(listed as RpcResult<{ effects: EffectView[] }>), 200);
  });

  app.openapi(cancelThreadEffect, async (c) => {
    const { id, effectId } = c.req.valid('param');
    const cancelled = await threadStub(c.env, id).cancelEffect(c.get('principal'), id, effectId);
    return c.json(unwrap(cancelled as RpcResult<EffectView>), 200);
  });

  return app;
}
