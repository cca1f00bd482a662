/**
 * One span of the timeline as a row: its name indented by its depth, a bar placed and sized by when
 * it ran within the turn's window, how long it took, the tokens and cost of a model step or a turn,
 * and why it failed. What a row leads to (its entry in the log, a child thread's spans) is added by
 * the waterfall, which knows where those are.
 */
import { h } from './dom.js';
import { count, dollars } from './format.js';
import { barPlacement, spanDuration, type TimeWindow } from './timeline-scale.js';
import { type Span, type SpanUsage, usageOf } from './timeline-spans.js';

function usageText(usage: SpanUsage): string {
  const parts = [
    usage.inputTokens === null ? null : `${count(usage.inputTokens)} in`,
    usage.outputTokens === null ? null : `${count(usage.outputTokens)} out`,
    usage.costUsd === null ? null : dollars(usage.costUsd),
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The name of the span's kind of work, for the bar's colour: the first word of its name. */
function family(span: Span): string {
  const word = span.name.split(' ', 1)[0] ?? '';
  return /^[a-z_/]+$/.test(word) ? word.replace('/', '-') : 'other';
}

export interface SpanRow {
  /** The row, and beneath its line the rows of whatever ran inside the span. */
  element: HTMLLIElement;
  /** Where the row's controls go (the name, a link to the log, a child thread's toggle). */
  label: HTMLElement;
}

export function spanRow(span: Span, depth: number, window: TimeWindow): SpanRow {
  const { left, width } = barPlacement(span, window);
  const bar = h('span', { class: `span-bar span-${family(span)}` });
  bar.style.left = `${left}%`;
  bar.style.width = `${width}%`;
  const label = h('span', { class: 'span-label' });
  label.style.paddingInlineStart = `${Math.min(depth, 8) * 0.9}rem`;
  const usage = usageOf(span);
  const line = h(
    'div',
    { class: 'span-line' },
    label,
    h('span', { class: 'span-duration' }, spanDuration(Math.max(0, span.end_ms - span.start_ms))),
    h('span', { class: 'span-track', 'aria-hidden': 'true' }, bar),
    usage ? h('span', { class: 'span-usage muted' }, usageText(usage)) : null,
    span.status === 'error'
      ? h('span', { class: 'span-failure error-text', role: 'note' }, span.status_message || 'failed')
      : null,
  );
  const element = h(
    'li',
    {
      class: `span-row${span.status === 'error' ? ' span-error' : ''}`,
      'data-span-id': span.span_id,
      'data-span-name': span.name,
    },
    line,
  );
  return { element, label };
}
