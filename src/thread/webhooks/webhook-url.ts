/**
 * Where a webhook may be sent (WH-5): the egress policy of `state.fetch` (no loopback, private,
 * link-local, metadata or other inward address, in any spelling, nor a name that leads there), and
 * https only: plain http only for a host the deployment lists in `EGRESS_ALLOW_HOSTS`, the
 * development allow-list. Checked when an endpoint is registered or changed, and again before every
 * attempt, so a URL refused since (a changed allow-list) is never contacted.
 */
import { canonicalHost, checkEgress, type EgressPolicy, egressPolicy } from '../../engine/egress/index.js';
import type { RuntimeEnv } from '../bindings/index.js';

/** Longest URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** The deployment's egress policy, built once per value of the variable. */
let cached: { source: string; policy: EgressPolicy } | null = null;

export function webhookEgress(env: Pick<RuntimeEnv, 'EGRESS_ALLOW_HOSTS'>): EgressPolicy {
  const source = env.EGRESS_ALLOW_HOSTS ?? '';
  if (cached?.source !== source) cached = { source, policy: egressPolicy(source) };
  return cached.policy;
}

/** Why `raw` may not receive webhooks, or null when it may. */
export function webhookUrlProblem(raw: string, policy: EgressPolicy): string | null {
  if (raw.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
  const decision = checkEgress(policy, raw);
  if (!decision.allowed) return decision.message;
  const url = decision.url;
  if (url.protocol === 'https:') return null;
  const host = canonicalHost(url);
  const listed = policy.allowHosts.has(host) || policy.allowHosts.has(`${host}:${url.port || '80'}`);
  return listed ? null : `only https URLs receive webhooks (http only for a host listed in EGRESS_ALLOW_HOSTS)`;
}
