/**
 * `client.spans.list` in workerd, the client speaking to the Worker's own handler: a turn's spans
 * (the turn, its model steps and its tool call) read back as the inspector's timeline reads them,
 * one trace's alone with `traceId`, the newest traces with `traces`, and a refusal as ApiError.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient, type Span } from '../../client/index.js';
import { ALICE, BOB, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

const worker = (exports as unknown as { default: Fetcher }).default;

function clientOf(key: string) {
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => worker.fetch(new Request(input, init));
  return createClient({ baseUrl: 'https://runtime.test', apiKey: key, fetch });
}

const client = clientOf(ALICE);

/** Runs one turn of `general` that calls `add` once, then answers; resolves when it has ended. */
async function turnWithCall(id: string, answer: string): Promise<void> {
  await client.messages.post(id, {
    content: directive([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: answer }]),
  });
  await settled(id);
}

/** The thread's spans once `turns` turns have written theirs (a turn writes its spans as it ends). */
function spansOf(id: string, turns: number): Promise<Span[]> {
  return until(
    async () => (await client.spans.list(id, { traces: 200 })).spans,
    (spans) => spans.filter((span) => span.name.startsWith('invoke_agent ')).length >= turns,
  );
}

describe('client.spans.list', () => {
  it("TL-1: reads a turn's spans, its model steps and tool call beneath it, linked to the stored messages", async () => {
    const { id } = await client.threads.create({ agent: 'general' });
    await turnWithCall(id, 'Five.');
    const spans = await spansOf(id, 1);
    const turn = spans.find((span) => span.name === 'invoke_agent general');
    expect(turn).toMatchObject({ parent_span_id: null, status: expect.stringMatching(/^(ok|unset)$/) });
    const below = spans.filter((span) => span.parent_span_id === turn?.span_id);
    expect(below.map((span) => span.name)).toEqual(['chat scripted', 'execute_tool add', 'chat scripted']);
    for (const span of spans) {
      expect(span.trace_id).toBe(turn?.trace_id);
      expect(span.end_ms).toBeGreaterThanOrEqual(span.start_ms);
    }
    // Each step and call names the message it stored, which the inspector's log shows.
    const log = await client.messages.list(id, { limit: 100 });
    const ids = new Set(log.messages.map((message) => message.id));
    for (const span of below) expect(ids.has(String(span.attributes['standard_agents.message.id']))).toBe(true);
    expect(spans.map((span) => span.start_ms)).toEqual([...spans.map((span) => span.start_ms)].sort((a, b) => a - b));
  });

  it('TL-1: traceId gives one turn alone, traces the newest turns', async () => {
    const { id } = await client.threads.create({ agent: 'general' });
    await turnWithCall(id, 'First.');
    await turnWithCall(id, 'Second.');
    const all = await spansOf(id, 2);
    const traces = [...new Set(all.map((span) => span.trace_id))];
    expect(traces).toHaveLength(2);
    const [older, newer] = traces as [string, string];
    const one = await client.spans.list(id, { traceId: older });
    expect(one.spans.length).toBeGreaterThan(0);
    expect(one.spans.every((span) => span.trace_id === older)).toBe(true);
    const newest = await client.spans.list(id, { traces: 1 });
    expect(new Set(newest.spans.map((span) => span.trace_id))).toEqual(new Set([newer]));
  });

  it('refuses a malformed trace id with ApiError invalid_request, and a thread not seen with 404', async () => {
    const { id } = await client.threads.create({ agent: 'general' });
    const malformed = await client.spans.list(id, { traceId: 'ABC' }).catch((error: unknown) => error);
    expect(malformed).toBeInstanceOf(ApiError);
    expect(malformed).toMatchObject({ status: 400, code: 'invalid_request' });
    const foreign = await clientOf(BOB)
      .spans.list(id)
      .catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(ApiError);
    expect(foreign).toMatchObject({ status: 404 });
  });
});
