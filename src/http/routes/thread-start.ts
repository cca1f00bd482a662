/**
 * Starting a thread for a user (THR-5, VAR-2): the agent must exist and every required variable must
 * have a value before anything is stored. `POST /api/threads` and the MCP agent tools both start
 * threads through here, so the two cannot disagree on what a valid start is.
 */

import type { z } from 'zod';
import type { Registry } from '../../engine/registry/index.js';
import { missingVariables } from '../../spec/internal.js';
import { type Principal, roleAtLeast } from '../../thread/access/index.js';
import { type RuntimeEnv, type ThreadDetails, threadStub, type WebhookCreated } from '../../thread/bindings/index.js';
import { type CreateThreadBody, HttpError, unwrap } from '../contract/index.js';
import { checkThreadWebhooks, registerThreadWebhooks } from '../webhooks/index.js';
import { seededContext } from './seeded-context.js';
import { withThreadAdmission } from './turn-admission.js';

/** A validated `POST /api/threads` body. */
export type StartThreadInput = z.output<typeof CreateThreadBody>;

/**
 * Creates the thread, owned by `principal` in its tenant; throws an HttpError (403 `forbidden` below
 * the member role, 400 `unknown_agent`, `missing_variables` or `invalid_context`) without storing
 * anything.
 */
export async function startThread(
  env: RuntimeEnv,
  registry: Registry,
  principal: Principal,
  body: StartThreadInput,
  /** The caller's W3C `traceparent`: the thread's first turn continues that trace; a bad one is ignored. */
  traceparent?: string,
): Promise<ThreadDetails & { webhooks?: WebhookCreated[] }> {
  if (!roleAtLeast(principal.role, 'member')) {
    throw new HttpError({
      status: 403,
      code: 'forbidden',
      message: `the ${principal.role} role may not start threads`,
    });
  }
  const agent = registry.agent(body.agent);
  if (!agent) {
    throw new HttpError({
      status: 400,
      code: 'unknown_agent',
      message: `no agent named "${body.agent}"; known agents: ${[...registry.agents.keys()].join(', ')}`,
    });
  }
  const missing = missingVariables(registry.variablesFor(agent), body.variables);
  if (missing.length > 0) {
    throw new HttpError({
      status: 400,
      code: 'missing_variables',
      message: `required variables without a value: ${missing.join(', ')}`,
      details: { missing },
    });
  }
  const context = body.context ? seededContext(registry, agent, body.context) : undefined;
  checkThreadWebhooks(env, principal, body.webhooks ?? []);
  const id = crypto.randomUUID();
  // IDN-5: counted once the start is known valid; a trailing user message starts a turn, which takes a slot.
  const startsTurn = body.messages.at(-1)?.role === 'user';
  // WH-2: the thread's own endpoints exist before it does, so they hear its thread.created.
  const webhooks = await registerThreadWebhooks(env, principal, id, body.webhooks ?? []);
  const details = await withThreadAdmission(env, principal, id, startsTurn, async () =>
    unwrap(
      await threadStub(env, id).create({
        id,
        agent: agent.name,
        tenant: principal.tenant,
        userId: principal.subject,
        ...(body.shared ? { shared: true } : {}),
        messages: body.messages,
        variables: body.variables,
        tags: body.tags,
        headless: body.headless,
        permissions: body.permissions,
        ...(body.budget ? { budget: body.budget } : {}),
        ...(context ? { context } : {}),
        ...(traceparent ? { traceparent } : {}),
      }),
    ),
  ).catch(async (error: unknown) => {
    await webhooks.undo();
    throw error;
  });
  return webhooks.created.length > 0 ? { ...details, webhooks: webhooks.created } : details;
}
