/**
 * The inspector timeline's reading of spans, without a browser: turns grouped by trace, newest
 * first; trees by `parent_span_id`, a span whose parent is elsewhere (a caller's, the parent
 * thread's call) a root, and parent links that would loop shown once each as roots; the turn's
 * tokens summed from its model steps, never from the turn spans' running totals; bars kept inside
 * the turn's window however the times fall.
 */
import { describe, expect, it } from 'vitest';
import type { Span } from '../../../client/index.js';
import { barPlacement, spanDuration } from '../../../inspector/src/timeline-scale.js';
import { spanTree, turnsOf } from '../../../inspector/src/timeline-spans.js';

function span(id: string, parent: string | null, start: number, end: number, extra: Partial<Span> = {}): Span {
  return {
    trace_id: 'a'.repeat(32),
    span_id: id,
    parent_span_id: parent,
    name: `span ${id}`,
    kind: 'internal',
    start_ms: start,
    end_ms: end,
    status: 'ok',
    attributes: {},
    events: [],
    ...extra,
  };
}

const chat = (id: string, parent: string, start: number, input: number, output: number, cost?: number) =>
  span(id, parent, start, start + 5, {
    name: 'chat m',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
      ...(cost === undefined ? {} : { 'standard_agents.cost_usd': cost }),
    },
  });

const turnSpan = (id: string, parent: string | null, start: number, end: number, input: number) =>
  span(id, parent, start, end, {
    name: 'invoke_agent a',
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': input },
  });

describe('TL-2: the timeline reads spans into turns', () => {
  it('nests spans by parent, each level in the order it started; a parent not listed makes a root', () => {
    const roots = spanTree([
      span('c', 'a', 30, 40),
      span('b', 'a', 10, 20),
      span('a', 'caller-span', 0, 50),
      span('d', 'b', 12, 15),
    ]);
    expect(roots.map((node) => node.span.span_id)).toEqual(['a']);
    expect(roots[0]?.children.map((node) => node.span.span_id)).toEqual(['b', 'c']);
    expect(roots[0]?.children[0]?.children.map((node) => node.span.span_id)).toEqual(['d']);
  });

  it('shows spans whose parents loop (or name themselves) once each, as roots', () => {
    const roots = spanTree([span('x', 'y', 0, 1), span('y', 'x', 1, 2), span('z', 'z', 2, 3), span('w', 'x', 3, 4)]);
    const all: string[] = [];
    const walk = (nodes: typeof roots) => {
      for (const node of nodes) {
        all.push(node.span.span_id);
        walk(node.children);
      }
    };
    walk(roots);
    expect(all.sort()).toEqual(['w', 'x', 'y', 'z']);
    expect(roots.map((node) => node.span.span_id)).toEqual(['x', 'y', 'z']);
  });

  it('groups by trace, newest first, with the failures counted and the steps summed', () => {
    const older = [turnSpan('t1', null, 0, 100, 10), chat('s1', 't1', 1, 10, 2, 0.5)].map((each) => ({
      ...each,
      trace_id: '1'.repeat(32),
    }));
    // A turn an answer resumed: beneath the first, its own totals counting from the user's message.
    const newer = [
      turnSpan('t2', null, 200, 260, 30),
      chat('s2', 't2', 201, 30, 3),
      span('e', 't2', 210, 220, { status: 'error', status_message: 'File not found' }),
      turnSpan('t3', 't2', 300, 340, 70),
      chat('s3', 't3', 301, 40, 4),
    ].map((each) => ({ ...each, trace_id: '2'.repeat(32) }));
    const turns = turnsOf([...older, ...newer]);
    expect(turns.map((turn) => turn.traceId)).toEqual(['2'.repeat(32), '1'.repeat(32)]);
    const [latest, first] = turns;
    expect(latest).toMatchObject({ startMs: 200, endMs: 340, errors: 1 });
    expect(latest?.head.span_id).toBe('t2');
    expect(latest?.usage).toEqual({ inputTokens: 70, outputTokens: 7, costUsd: null });
    expect(first?.usage).toEqual({ inputTokens: 10, outputTokens: 2, costUsd: 0.5 });
  });

  it('an effect run, a trace with no turn span, is headed by its own span', () => {
    const [effect] = turnsOf([span('f', null, 5, 9, { name: 'effect send_reminder' })]);
    expect(effect?.head.name).toBe('effect send_reminder');
    expect(effect?.usage).toBeNull();
  });

  it('keeps every bar inside the window and wide enough to see', () => {
    const window = { startMs: 1000, endMs: 2000 };
    expect(barPlacement(span('a', null, 1250, 1750), window)).toEqual({ left: 25, width: 50 });
    expect(barPlacement(span('a', null, 1000, 1000), window)).toEqual({ left: 0, width: 0.6 });
    expect(barPlacement(span('a', null, 2000, 2000), window)).toEqual({ left: 99.4, width: 0.6 });
    // A child thread's turn that outlasted the parent's, or clocks that disagree.
    expect(barPlacement(span('a', null, 500, 3000), window)).toEqual({ left: 0, width: 100 });
    expect(barPlacement(span('a', null, 1500, 1400), window)).toEqual({ left: 50, width: 0.6 });
    const empty = { startMs: 5, endMs: 5 };
    const placed = barPlacement(span('a', null, 5, 5), empty);
    expect(placed.left + placed.width).toBeLessThanOrEqual(100);
  });

  it('says durations in tenths of a millisecond below 10 ms', () => {
    expect(spanDuration(0.04)).toBe('0 ms');
    expect(spanDuration(3.456)).toBe('3.5 ms');
    expect(spanDuration(42.4)).toBe('42 ms');
    expect(spanDuration(1520)).toBe('1.52 s');
  });
});
