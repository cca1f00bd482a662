/**
 * What a thread's model calls cost (THR-4): each step's usage added to the thread's totals and to
 * the current turn's (a turn starts at the newest user message), priced when the model declares
 * prices, kept in the thread's store so they survive restarts, and streamed as a `usage` frame.
 * Budgets (`maxTokens`, `maxCost`, per agent or per thread) are checked before each model step:
 * a thread over its budget ends its turn with `budget_exceeded` instead of calling the model again.
 */
import type { Message, ModelDefinition, ModelPrices } from '../../spec/index.js';
import type { FrameSink, ModelUsage, ThreadStore, UsageTotals } from '../ports/index.js';
import { lastUserIndex } from './turn-log.js';

/** A budget: the most tokens (input and output) or dollars a thread may spend on models. */
export interface Budget {
  maxTokens?: number;
  maxCost?: number;
}

/**
 * The thread's and the current turn's totals, kept in one row: a step writes it once (a stored row
 * is billed per write). Threads from before keep theirs in two rows, read until their next step.
 */
const USAGE_KEY = 'usage';
const THREAD_KEY = 'usage:thread';
const TURN_KEY = 'usage:turn';

interface StoredUsage {
  thread: UsageTotals;
  turn: { turn: string; totals: UsageTotals };
}
/** Where a thread's own budget (given at creation) is kept. */
export const BUDGET_KEY = 'budget';

export const NO_USAGE: UsageTotals = {
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  total_tokens: 0,
  cost_usd: 0,
  steps: 0,
  unpriced_steps: 0,
};

type UsageStore = Pick<ThreadStore, 'getValue' | 'setValue'>;

/** The id of the user message that started the current turn: usage is totalled per turn. */
export function turnIdOf(log: readonly Message[]): string {
  return log[lastUserIndex(log)]?.id ?? '';
}

/** Dollars for one step's usage at the model's prices; null without prices. */
export function stepCost(usage: ModelUsage, prices: ModelPrices | undefined): number | null {
  if (!prices) return null;
  const cached = usage.cachedTokens ?? 0;
  const input = (usage.promptTokens - cached) * prices.input + cached * (prices.cachedInput ?? prices.input);
  return (input + usage.completionTokens * prices.output) / 1_000_000;
}

function added(totals: UsageTotals, usage: ModelUsage, cost: number | null): UsageTotals {
  return {
    input_tokens: totals.input_tokens + usage.promptTokens,
    output_tokens: totals.output_tokens + usage.completionTokens,
    cached_tokens: totals.cached_tokens + (usage.cachedTokens ?? 0),
    total_tokens: totals.total_tokens + usage.totalTokens,
    cost_usd: totals.cost_usd + (cost ?? 0),
    steps: totals.steps + 1,
    unpriced_steps: totals.unpriced_steps + (cost === null ? 1 : 0),
  };
}

function storedUsage(store: UsageStore): Partial<StoredUsage> {
  const combined = store.getValue(USAGE_KEY) as StoredUsage | undefined;
  if (combined) return combined;
  return {
    thread: store.getValue(THREAD_KEY) as UsageTotals | undefined,
    turn: store.getValue(TURN_KEY) as StoredUsage['turn'] | undefined,
  };
}

export function threadUsage(store: UsageStore): UsageTotals {
  return storedUsage(store).thread ?? NO_USAGE;
}

/** The totals of the turn started by user message `turnId` (the newest turn's when omitted). */
export function turnUsage(store: UsageStore, turnId?: string): UsageTotals {
  const stored = storedUsage(store).turn;
  if (!stored || (turnId !== undefined && stored.turn !== turnId)) return NO_USAGE;
  return stored.totals;
}

/**
 * Adds one model step to the thread's and the turn's totals and streams them. `turnId` is the id of
 * the user message that started the turn; `messageId` the step's assistant message (or summary).
 */
export function recordUsage(
  store: UsageStore,
  emit: FrameSink,
  step: { usage: ModelUsage | null; model: ModelDefinition; messageId: string; turnId: string },
): void {
  if (!step.usage) return;
  const cost = stepCost(step.usage, step.model.prices);
  const thread = added(threadUsage(store), step.usage, cost);
  const turn = added(turnUsage(store, step.turnId), step.usage, cost);
  store.setValue(USAGE_KEY, { thread, turn: { turn: step.turnId, totals: turn } } satisfies StoredUsage);
  emit({
    type: 'usage',
    message_id: step.messageId,
    model: step.model.name,
    step: added(NO_USAGE, step.usage, cost),
    turn,
    thread,
  });
}

/** The tighter of each limit of the agent's budget and the thread's. */
export function effectiveBudget(agent: Budget | undefined, thread: Budget | undefined): Budget {
  const tighter = (a: number | undefined, b: number | undefined) =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  return { maxTokens: tighter(agent?.maxTokens, thread?.maxTokens), maxCost: tighter(agent?.maxCost, thread?.maxCost) };
}

/** The budget of a thread: its agent's and its own (given at creation), the tighter of each limit. */
export function threadBudget(agent: Budget | undefined, store: UsageStore): Budget {
  return effectiveBudget(agent, store.getValue(BUDGET_KEY) as Budget | undefined);
}

/** Why the thread may not call a model again, or null while it is within its budget. */
export function budgetExceeded(store: UsageStore, budget: Budget): string | null {
  const used = threadUsage(store);
  if (budget.maxTokens !== undefined && used.total_tokens >= budget.maxTokens) {
    return `The thread has used ${used.total_tokens} tokens of its budget of ${budget.maxTokens} (maxTokens); no further model call is made.`;
  }
  if (budget.maxCost !== undefined && used.cost_usd >= budget.maxCost) {
    return `The thread has spent $${used.cost_usd.toFixed(4)} of its budget of $${budget.maxCost} (maxCost); no further model call is made.`;
  }
  return null;
}
