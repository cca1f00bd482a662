/**
 * The span the running code is part of (TRACE-1). Work is nested by where it runs: a tool call runs
 * under its step's turn, a tool invoked by a program under the program's call, a child thread's
 * message is sent from within the call that started it. An async context carries the span through
 * every await, so the layers between (the executor, nested prompt runs, the thread's host) pass
 * nothing along, and concurrent calls each keep their own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { NO_SPAN, type Span } from './span.js';

const active = new AsyncLocalStorage<Span>();

/** Runs `work` with `span` as the active span. */
export function withSpan<T>(span: Span, work: () => T): T {
  return active.run(span, work);
}

/** The active span; `NO_SPAN` outside any traced work. */
export function activeSpan(): Span {
  return active.getStore() ?? NO_SPAN;
}

/**
 * Runs `work` in a child span of the active one, ended when the work settles: failed when it throws
 * (the error passes on), else ended as `outcome` leaves it.
 */
export async function inChildSpan<T>(
  name: string,
  options: { kind?: 'internal' | 'client'; attributes?: Record<string, string | number | boolean> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = activeSpan().child(name, options.kind ?? 'internal', options.attributes ?? {});
  if (!span.recording) return work(span);
  try {
    return await withSpan(span, () => work(span));
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
