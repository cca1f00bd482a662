/**
 * A step's model call against its payer's spend quotas (IDN-6): before the call, the request's
 * estimated input tokens (the estimate compaction uses) and their price at the model's input price
 * are held against the day's quotas; a refusal ends the run with `quota_exceeded` before anything is
 * sent or stored. After the call the hold is settled with the usage the provider reported. A summary
 * made to fit the request (compaction) is counted, not held.
 */
import type { ModelDefinition, ModelMessage } from '../../spec/index.js';
import { stepCost, type TurnOutcome } from '../conversation/index.js';
import type { ModelTool, ModelUsage, SpendEstimate } from '../ports/index.js';
import { estimateTokens } from '../request/index.js';
import type { StepRun } from './step-types.js';

/** No port, or a hold to settle; `outcome` when the call may not be made. */
export type SpendHold = { hold: string | null } | { outcome: TurnOutcome };

export async function holdSpend(
  run: StepRun,
  messages: ModelMessage[],
  tools: readonly ModelTool[],
): Promise<SpendHold> {
  const spend = run.deps.host.spend;
  if (!spend) return { hold: null };
  const estimate = () => {
    const tokens = estimateTokens(messages, tools);
    const cost = stepCost({ promptTokens: tokens, completionTokens: 0, totalTokens: tokens }, run.model.prices) ?? 0;
    return { tokens, cost };
  };
  const decision = await spend.beforeModelCall(estimate);
  if (decision.ok) return { hold: decision.hold };
  return { outcome: { kind: 'limit', code: 'quota_exceeded', message: decision.message } };
}

/** What a call spent: its reported usage, priced at `model`'s prices (nothing without a report). */
function spentBy(model: ModelDefinition, usage: ModelUsage | null): SpendEstimate | null {
  return usage ? { tokens: usage.totalTokens, cost: stepCost(usage, model.prices) ?? 0 } : null;
}

/** Settles a hold with what the call spent: its reported usage priced, or nothing when it failed. */
export async function settleSpend(run: StepRun, hold: string | null, usage: ModelUsage | null): Promise<void> {
  const spend = run.deps.host.spend;
  if (!spend || hold === null) return;
  await spend.afterModelCall(hold, spentBy(run.model, usage));
}

/**
 * Counts a summary's model call (compaction, which the step needs before its own call can fit): it
 * is not refused by the quota, but what it spent counts toward the day.
 */
export async function recordSummarySpend(
  run: StepRun,
  model: ModelDefinition,
  usage: ModelUsage | null,
): Promise<void> {
  const spent = spentBy(model, usage);
  if (spent) await run.deps.host.spend?.afterModelCall('', spent);
}
