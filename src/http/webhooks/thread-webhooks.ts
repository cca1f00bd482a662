/**
 * A thread's own endpoints, given in `POST /api/threads` `{ webhooks: [{ url, events }] }` (WH-2):
 * checked before anything is created (400 `invalid_url`, `invalid_events`; 501 `not_configured`
 * without TENANTS), registered under the new thread's id before the thread is written, so its
 * `thread.created` is heard, and each one's id and secret returned in the creation's answer.
 */
import { z } from '@hono/zod-openapi';
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv, WebhookCreated } from '../../thread/bindings/index.js';
import { tenantStub } from '../../thread/tenancy/index.js';
import { forgetInterest, webhookEgress, webhookInputProblem } from '../../thread/webhooks/index.js';
import { HttpError, ThreadDetailsSchema, unwrap } from '../contract/index.js';
import { webhookStub, webhookViewer } from './tenant-webhooks.js';
import { CreatedWebhookSchema } from './webhook-schemas.js';

export interface ThreadWebhookInput {
  url: string;
  events: string[];
}

/** The creation's answer: the thread, and its own endpoints when it was given some. */
export const CreatedThreadSchema = ThreadDetailsSchema.extend({
  webhooks: z
    .array(CreatedWebhookSchema)
    .optional()
    .describe("The thread's own endpoints, when the request gave some: each one's secret is shown only here"),
}).openapi('CreatedThread');

/** Thread `threadId` of `tenant` was deleted: its own endpoints go too (nothing without TENANTS). */
export async function forgetThreadWebhooks(env: RuntimeEnv, tenant: string, threadId: string): Promise<void> {
  await tenantStub(env, tenant)?.threadDeleted(threadId);
}

/** Throws the first problem of the thread's endpoints; nothing is created. */
export function checkThreadWebhooks(env: RuntimeEnv, principal: Principal, list: readonly ThreadWebhookInput[]): void {
  if (list.length === 0) return;
  webhookStub(env, principal);
  const policy = webhookEgress(env);
  for (const [index, input] of list.entries()) {
    const problem = webhookInputProblem(input, policy);
    if (problem) throw new HttpError({ ...problem, message: `webhooks[${index}].${problem.message}` });
  }
}

/** Registers the endpoints for thread `threadId`; `undo` deletes them again (the thread was refused). */
export async function registerThreadWebhooks(
  env: RuntimeEnv,
  principal: Principal,
  threadId: string,
  list: readonly ThreadWebhookInput[],
): Promise<{ created: WebhookCreated[]; undo(): Promise<void> }> {
  if (list.length === 0) return { created: [], undo: async () => undefined };
  const stub = webhookStub(env, principal);
  const viewer = webhookViewer(principal);
  const created: WebhookCreated[] = [];
  for (const input of list) created.push(unwrap(await stub.createWebhook(viewer, { ...input, threadId })));
  forgetInterest(principal.tenant);
  return {
    created,
    undo: async () => {
      for (const webhook of created) await stub.deleteWebhook(viewer, webhook.id);
    },
  };
}
