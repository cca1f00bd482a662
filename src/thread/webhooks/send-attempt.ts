/**
 * One attempt at a delivery (WH-3, WH-5): the body signed the Standard Webhooks way (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 over `id.timestamp.body` with the endpoint's
 * secret, through the `standardwebhooks` package), sent by POST through the egress policy, the URL
 * checked again first. Redirects are not followed: an endpoint that answers 3xx has not taken the
 * delivery, and its Location is never contacted. The answer's body is not read.
 */
import { Webhook } from 'standardwebhooks';
import { type EgressPolicy, outboundFetch } from '../../engine/egress/index.js';
import type { AttemptRow } from '../storage/index.js';
import { webhookUrlProblem } from './webhook-url.js';

/** How long an endpoint has to answer. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

export interface OutgoingDelivery {
  /** The delivery's `msg_...` id, the same on every attempt. */
  id: string;
  url: string;
  secret: string;
  body: string;
}

/** What came of an attempt: the row to keep, and whether the endpoint took the delivery. */
export interface AttemptResult {
  attempt: AttemptRow;
  delivered: boolean;
  /** The URL is refused by the egress policy: no later attempt can do better. */
  refused: boolean;
}

export function signedHeaders(delivery: OutgoingDelivery, at: Date): Record<string, string> {
  const signature = new Webhook(delivery.secret).sign(delivery.id, at, delivery.body);
  return {
    'content-type': 'application/json',
    'user-agent': 'standard-agents-webhooks',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

function failedWith(at: number, started: number, error: string, refused = false): AttemptResult {
  return { attempt: { at, statusCode: null, error, durationMs: Date.now() - started }, delivered: false, refused };
}

function causeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

export async function sendAttempt(
  egress: EgressPolicy,
  delivery: OutgoingDelivery,
  at: number,
): Promise<AttemptResult> {
  const started = Date.now();
  const problem = webhookUrlProblem(delivery.url, egress);
  if (problem) return failedWith(at, started, `refused: ${problem}`, true);
  let response: Response;
  try {
    response = await outboundFetch({ egress }, delivery.url, {
      method: 'POST',
      // Signed at the real time even when a test moves `at`: receivers check it against their clock.
      headers: signedHeaders(delivery, new Date()),
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
  } catch (error) {
    return failedWith(at, started, causeOf(error));
  }
  await response.body?.cancel().catch(() => undefined);
  const durationMs = Date.now() - started;
  const status = response.status;
  if (status >= 200 && status < 300)
    return { attempt: { at, statusCode: status, error: null, durationMs }, delivered: true, refused: false };
  const error =
    status >= 300 && status < 400
      ? `redirects are not followed (Location: ${response.headers.get('location') ?? 'none'})`
      : `the endpoint answered ${status}`;
  return { attempt: { at, statusCode: status, error, durationMs }, delivered: false, refused: false };
}
