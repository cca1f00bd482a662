/**
 * W3C trace context and spans (TRACE-2, TRACE-4): a valid `traceparent` read and written back; every
 * malformed one in the hostile corpus read as no parent; a span's content recorded only when capture is
 * on, scrubbed and bounded; untraced work costs nothing and records nothing; a failing child span ends.
 */
import { describe, expect, it } from 'vitest';
import {
  activeSpan,
  type FinishedSpan,
  formatTraceparent,
  inChildSpan,
  NO_SPAN,
  parseTraceparent,
  Tracer,
  withSpan,
} from '../../../../src/engine/tracing/index.js';
import { HOSTILE_TRACEPARENTS } from '../../../support/hostile-corpus.js';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function tracer(captureContent: boolean, spans: FinishedSpan[]) {
  return new Tracer({
    sink: { record: (span) => spans.push(span) },
    common: { 'standard_agents.thread.id': 't1' },
    scrub: (text) => text.replaceAll('s3cret', '[secret]'),
    captureContent,
  });
}

describe('TRACE-2: traceparent', () => {
  it('TRACE-2: a valid header is read and written back unchanged', () => {
    const context = parseTraceparent(VALID);
    expect(context).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true });
    expect(formatTraceparent(context as NonNullable<typeof context>)).toBe(VALID);
    // A later version may add fields after the flags.
    expect(parseTraceparent(`01-${VALID.slice(3)}-more`)?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it.each(
    HOSTILE_TRACEPARENTS.map((value) => [JSON.stringify(value).slice(0, 60), value]),
  )('TRACE-2: %s reads as no parent', (_label, value) => {
    expect(parseTraceparent(value)).toBeNull();
  });

  it('TRACE-2: a span under a parent keeps its trace; a root starts a new one', () => {
    const spans: FinishedSpan[] = [];
    const parent = parseTraceparent(VALID);
    const turn = tracer(false, spans).start('invoke_agent a', parent);
    turn.end();
    const root = tracer(false, spans).start('invoke_agent a', null);
    root.end();
    expect(spans[0]).toMatchObject({ traceId: parent?.traceId, parentSpanId: parent?.spanId });
    expect(spans[1]?.parentSpanId).toBeNull();
    expect(spans[1]?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spans[1]?.traceId).not.toBe(parent?.traceId);
  });
});

describe('TRACE-4: contents and failures', () => {
  it('TRACE-4: content is recorded only when capture is on, scrubbed and cut to a bounded length', () => {
    const spans: FinishedSpan[] = [];
    const off = tracer(false, spans).start('chat m', null);
    off.content('gen_ai.input.messages', () => 'the s3cret');
    off.end();
    const on = tracer(true, spans).start('chat m', null);
    on.content('gen_ai.input.messages', () => [{ role: 'user', content: 'the s3cret' }]);
    on.content('gen_ai.tool.call.result', () => 'x'.repeat(100_000));
    on.end();
    expect(spans[0]?.attributes).not.toHaveProperty('gen_ai.input.messages');
    expect(spans[1]?.attributes['gen_ai.input.messages']).toBe('[{"role":"user","content":"the [secret]"}]');
    expect(String(spans[1]?.attributes['gen_ai.tool.call.result']).length).toBe(16_384);
  });

  it('TRACE-4: a failure message is scrubbed; a span ends once', () => {
    const spans: FinishedSpan[] = [];
    const span = tracer(false, spans).start('execute_tool t', null);
    span.fail(new TypeError('bad s3cret'));
    span.end();
    span.end();
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ status: 'error', statusMessage: 'bad [secret]' });
    expect(spans[0]?.attributes['error.type']).toBe('TypeError');
  });
});

describe('TRACE-1: the active span', () => {
  it('TRACE-1: untraced work records nothing; a child span nests under the active one and ends when it throws', async () => {
    expect(activeSpan()).toBe(NO_SPAN);
    expect(NO_SPAN.child('x')).toBe(NO_SPAN);
    const spans: FinishedSpan[] = [];
    const turn = tracer(false, spans).start('invoke_agent a', null);
    await withSpan(turn, async () => {
      await expect(
        inChildSpan('execute_tool t', {}, async () => {
          await Promise.resolve();
          expect(activeSpan().name).toBe('execute_tool t');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    });
    turn.end();
    expect(spans.map((span) => [span.name, span.parentSpanId, span.status])).toEqual([
      ['execute_tool t', turn.context.spanId, 'error'],
      ['invoke_agent a', null, 'unset'],
    ]);
    expect(spans[0]?.attributes['standard_agents.thread.id']).toBe('t1');
  });
});
