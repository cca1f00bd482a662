/**
 * Where a span's bar goes on the timeline and how its duration reads: the bar as a share of its
 * turn's window, kept inside it whatever the times (a child thread's turn that outlasted its
 * parent's, clocks that disagree), never too thin to see.
 */
import { duration } from './format.js';
import type { Span } from './timeline-spans.js';

/** The span of time every bar of one turn is drawn against, in epoch ms. */
export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** How much of the track the narrowest bar takes (%), so a span of a few microseconds still shows. */
const MIN_BAR = 0.6;

/** How long a span took: tenths of a millisecond below 10 ms, where most tool calls and hooks are. */
export function spanDuration(ms: number): string {
  return ms < 10 ? `${(Math.round(ms * 10) / 10).toString()} ms` : duration(ms);
}

/** The bar's offset and width as percentages of the window, kept inside it. */
export function barPlacement(span: Span, window: TimeWindow): { left: number; width: number } {
  const total = Math.max(window.endMs - window.startMs, 1e-3);
  const clamp = (value: number) => Math.min(100, Math.max(0, value));
  const left = clamp(((span.start_ms - window.startMs) / total) * 100);
  const right = clamp(((span.end_ms - window.startMs) / total) * 100);
  const width = Math.max(right - left, MIN_BAR);
  return { left: Math.min(left, 100 - width), width };
}
