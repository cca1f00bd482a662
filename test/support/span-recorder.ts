/**
 * A tracer whose finished spans a test reads (TRACE-1): `traced(work)` runs the work beneath a root
 * span, as a thread's turn would, and returns what it recorded.
 */
import { type FinishedSpan, Tracer, withSpan } from '../../src/engine/tracing/index.js';

export async function traced<T>(work: () => Promise<T>): Promise<{ value: T; spans: FinishedSpan[] }> {
  const spans: FinishedSpan[] = [];
  const tracer = new Tracer({
    sink: { record: (span) => spans.push(span) },
    common: {},
    scrub: (text) => text,
    captureContent: false,
  });
  const root = tracer.start('invoke_agent test', null);
  const value = await withSpan(root, work);
  root.end();
  return { value, spans };
}
