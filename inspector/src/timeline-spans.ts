/**
 * A thread's spans as the timeline draws them: grouped into turns (one per trace, in the order they
 * started), each a tree of spans by `parent_span_id`. A span whose parent is not among them (a
 * caller's span, or the parent thread's tool call for a child thread's turn) is a root. The
 * attributes the timeline shows are read here, so the rest of it never spells an attribute's name.
 */
import type { Span } from '../../client/index.js';

export type { Span };

export interface SpanNode {
  span: Span;
  children: SpanNode[];
}

/** The spans of one trace: a turn, with whatever it continued into (the turn an answer resumed). */
export interface Turn {
  traceId: string;
  roots: SpanNode[];
  /** The first root: the turn's `invoke_agent` span, when the trace has one. */
  head: Span;
  startMs: number;
  endMs: number;
  /** How many spans of the trace failed. */
  errors: number;
  /** What its model steps used, summed (a turn span's own totals count from the user's message). */
  usage: SpanUsage | null;
}

/** The spans of one trace (any order) as trees, each level in the order it started. */
export function spanTree(spans: readonly Span[]): SpanNode[] {
  const nodes = new Map<string, SpanNode>();
  for (const span of spans) nodes.set(span.span_id, { span, children: [] });
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parent_span_id ? nodes.get(node.span.parent_span_id) : undefined;
    // A span naming itself, or a cycle a hostile record made, still shows once: as a root.
    if (parent && parent !== node && !descendsFrom(parent, node, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  const byStart = (a: SpanNode, b: SpanNode) => a.span.start_ms - b.span.start_ms;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

/** Whether `node` lies above `candidate` on the chain of parents (the link would close a cycle). */
function descendsFrom(candidate: SpanNode, node: SpanNode, nodes: Map<string, SpanNode>): boolean {
  const seen = new Set<SpanNode>();
  let current: SpanNode | undefined = candidate;
  while (current && !seen.has(current)) {
    if (current === node) return true;
    seen.add(current);
    current = current.span.parent_span_id ? nodes.get(current.span.parent_span_id) : undefined;
  }
  return false;
}

/** A thread's spans grouped into turns, the newest first. */
export function turnsOf(spans: readonly Span[]): Turn[] {
  const traces = new Map<string, Span[]>();
  for (const span of spans) {
    const list = traces.get(span.trace_id);
    if (list) list.push(span);
    else traces.set(span.trace_id, [span]);
  }
  const turns: Turn[] = [];
  for (const [traceId, list] of traces) {
    const roots = spanTree(list);
    const head = roots.find((node) => isTurn(node.span))?.span ?? (roots[0] as SpanNode).span;
    turns.push({
      traceId,
      roots,
      head,
      startMs: Math.min(...list.map((span) => span.start_ms)),
      endMs: Math.max(...list.map((span) => span.end_ms)),
      errors: list.filter((span) => span.status === 'error').length,
      usage: stepsUsage(list),
    });
  }
  return turns.sort((a, b) => b.startMs - a.startMs);
}

function text(span: Span, name: string): string | null {
  const value = span.attributes[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function numeric(span: Span, name: string): number | null {
  const value = span.attributes[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function isTurn(span: Span): boolean {
  return span.attributes['gen_ai.operation.name'] === 'invoke_agent';
}

/** The stored message a span made: a model step's assistant message, a call's result. */
export function messageIdOf(span: Span): string | null {
  return text(span, 'standard_agents.message.id');
}

/** The tool call a span ran, whose entry the log shows by this id. */
export function toolCallIdOf(span: Span): string | null {
  return text(span, 'gen_ai.tool.call.id');
}

/** The child thread a call started or messaged. */
export function childThreadOf(span: Span): string | null {
  return text(span, 'standard_agents.child_thread.id');
}

export interface SpanUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** What a model step (or a whole turn) used; null when the span records none. */
export function usageOf(span: Span): SpanUsage | null {
  const usage = {
    inputTokens: numeric(span, 'gen_ai.usage.input_tokens'),
    outputTokens: numeric(span, 'gen_ai.usage.output_tokens'),
    costUsd: numeric(span, 'standard_agents.cost_usd'),
  };
  return usage.inputTokens === null && usage.outputTokens === null && usage.costUsd === null ? null : usage;
}

/** The summed usage of the model steps among `spans` (a compaction's summary is a step too). */
function stepsUsage(spans: readonly Span[]): SpanUsage | null {
  const steps = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat').map(usageOf);
  const sum = (pick: (usage: SpanUsage) => number | null): number | null => {
    const values = steps.map((usage) => (usage ? pick(usage) : null)).filter((value) => value !== null);
    return values.length === 0 ? null : values.reduce((total, value) => total + value, 0);
  };
  const usage = {
    inputTokens: sum((each) => each.inputTokens),
    outputTokens: sum((each) => each.outputTokens),
    costUsd: sum((each) => each.costUsd),
  };
  return usage.inputTokens === null && usage.outputTokens === null && usage.costUsd === null ? null : usage;
}
