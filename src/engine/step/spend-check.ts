/**
 * A step's model call against its payer's spend quotas (IDN-6): before the call, the request's
 * estimated input tokens (the estimate compaction uses) and their price at the model's input price
 * are held against the day's quotas; a refusal ends the run with `quota_exceeded` before anything is
 * sent or stored. After the call the hold is settled with the usage the provider reported.
 */
import type { ModelMessage } from '../../spec/index.js';
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
  const tokens = estimateTokens(messages, tools);
  const cost = stepCost({ promptTokens: tokens, completionTokens: 0, totalTokens: tokens }, run.model.prices) ?? 0;
  const decision = await spend.beforeModelCall({ tokens, cost });
  if (decision.ok) return { hold: decision.hold };
  return { outcome: { kind: 'limit', code: 'quota_exceeded', message: decision.message } };
}

/** Settles a hold with what the call spent: its reported usage priced, or nothing when it failed. */
export async function settleSpend(run: StepRun, hold: string | null, usage: ModelUsage | null): Promise<void> {
  const spend = run.deps.host.spend;
  if (!spend || hold === null) return;
  const spent: SpendEstimate | null = usage
    ? { tokens: usage.totalTokens, cost: stepCost(usage, run.model.prices) ?? 0 }
    : null;
  await spend.afterModelCall(hold, spent);
}
