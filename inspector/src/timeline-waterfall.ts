/**
 * A turn's spans as a waterfall: a nested list of rows (timeline-row.ts), each span's children
 * beneath it. A span that made a stored message links to its entry in the log; a call that started
 * or messaged a child thread opens that thread's spans of the same trace in place
 * (timeline-child.ts).
 */
import { h } from './dom.js';
import { ChildThreadSpans } from './timeline-child.js';
import { logEntryOf, showLogEntry } from './timeline-log-link.js';
import { spanRow } from './timeline-row.js';
import type { TimeWindow } from './timeline-scale.js';
import { childThreadOf, messageIdOf, type Span, type SpanNode, toolCallIdOf } from './timeline-spans.js';

export interface WaterfallContext {
  traceId: string;
  window: TimeWindow;
  /** The log the spans' messages are in; null for a child thread's spans, whose log is the child's. */
  log: HTMLElement | null;
  /** A child thread's spans of a trace, read when its row is first opened. */
  childSpans(childId: string, traceId: string): Promise<Span[]>;
}

/** The rows of `nodes` and everything beneath them, at `depth`. */
export function waterfall(nodes: readonly SpanNode[], depth: number, context: WaterfallContext): HTMLOListElement {
  return h(
    'ol',
    { class: 'span-rows' },
    nodes.map((node) => row(node, depth, context)),
  );
}

function row(node: SpanNode, depth: number, context: WaterfallContext): HTMLLIElement {
  const { span } = node;
  const { element, label } = spanRow(span, depth, context.window);
  label.append(nameOf(span, context.log));
  const childId = childThreadOf(span);
  if (childId) {
    const child = new ChildThreadSpans(childId, {
      traceId: context.traceId,
      childSpans: context.childSpans,
      // The child's messages are in its own log, not this one.
      draw: (roots) => waterfall(roots, depth + 1, { ...context, log: null }),
    });
    label.append(' ', child.toggle);
    element.append(child.element);
  }
  if (node.children.length > 0) element.append(waterfall(node.children, depth + 1, context));
  return element;
}

/** The span's name: a button showing its log entry when it made one, else plain text. */
function nameOf(span: Span, log: HTMLElement | null): HTMLElement {
  if (!log || (!messageIdOf(span) && !toolCallIdOf(span))) return h('span', { class: 'span-name' }, span.name);
  const button = h('button', { type: 'button', class: 'span-name link', title: 'Show in the log' }, span.name);
  button.addEventListener('click', () => {
    const entry = logEntryOf(log, span);
    if (entry) showLogEntry(log, entry);
    else button.title = 'Not shown in the log';
  });
  return button;
}
