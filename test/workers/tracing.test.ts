/**
 * Traces through HTTP, on Durable Objects (TRACE-1 to TRACE-5): one turn making a tool call, a
 * prompt tool's nested step and call, a child thread and a call that handles a secret, read back
 * from `GET /api/threads/:id/spans` as a tree: names, parents across Durable Objects, the GenAI
 * attributes, the secret in none of it; a caller's `traceparent` continued and a malformed one
 * ignored. The agents are in tracing-app.ts; contents are recorded in this project's tests.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { describe, expect, it } from 'vitest';
import type { FinishedSpan } from '../../src/engine/tracing/index.js';
import { SPAN_BATCHES_KEPT, SpanRows } from '../../src/thread/storage/index.js';
import { ALICE, api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { HOSTILE_TRACEPARENTS } from '../support/hostile-corpus.js';

interface WireSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  start_ms: number;
  end_ms: number;
  status: string;
  status_message?: string;
  attributes: Record<string, unknown>;
}

const TOKEN = 'tok-9f8e7d6c5b4a39281706';

async function spans(id: string, query = ''): Promise<WireSpan[]> {
  const response = await api(`/api/threads/${id}/spans${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { spans: WireSpan[] }).spans;
}

const named = (list: readonly WireSpan[], name: string) => list.filter((span) => span.name === name);

function only(list: readonly WireSpan[], name: string): WireSpan {
  const found = named(list, name);
  expect(found, `one span named ${name} in ${list.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0] as WireSpan;
}

async function tracedTurn(traceparent?: string) {
  const sub = directive([{ toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] }, { text: 'the sum is 42' }]);
  const childScript = directive([
    { toolCalls: [{ name: 'echo', arguments: { text: 'from the child' } }] },
    { text: 'helped' },
  ]);
  const content = directive([
    {
      toolCalls: [
        { name: 'echo', arguments: { text: 'hello' } },
        { name: 'summarizer', arguments: { message: sub } },
      ],
    },
    { toolCalls: [{ name: 'helper', arguments: { question: childScript } }] },
    { toolCalls: [{ name: 'use_token' }, { name: 'pass_token' }] },
    { text: 'all done' },
  ]);
  const id = await createThread({ agent: 'traced', variables: { API_TOKEN: TOKEN, region: 'eu' } });
  const posted = await api(`/api/threads/${id}/messages`, {
    method: 'POST',
    json: { content },
    headers: traceparent ? { traceparent } : {},
  });
  expect(posted.status).toBe(202);
  await settled(id);
  return id;
}

describe('TRACE-1, TRACE-3, TRACE-5: a turn is a tree of spans kept by its thread', () => {
  it('TRACE-1, TRACE-3: the turn, its steps, calls, the prompt tool and the child thread nest as they ran', async () => {
    const id = await tracedTurn();
    const list = await spans(id);
    // The turn waited for its child; the child's answer resumed it, a turn of the same trace beneath it.
    const [turn, resumed] = named(list, 'invoke_agent traced') as [WireSpan, WireSpan];
    expect(turn.parent_span_id).toBeNull();
    expect(turn.attributes['standard_agents.outcome']).toBe('waiting');
    expect(resumed.parent_span_id).toBe(turn.span_id);
    expect(resumed.status).toBe('ok');
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'traced',
      'gen_ai.conversation.id': id,
      'standard_agents.thread.id': id,
      'tenant.id': 'default',
    });
    expect(resumed.attributes['standard_agents.outcome']).toBe('response');
    expect(typeof turn.attributes['enduser.id']).toBe('string');
    // Every span is in the trace and inside the time of the turns.
    for (const span of list) {
      expect(span.trace_id).toBe(turn.trace_id);
      expect(span.start_ms).toBeGreaterThanOrEqual(turn.start_ms);
      expect(span.end_ms).toBeLessThanOrEqual(resumed.end_ms);
    }
    const turnIds = [turn.span_id, resumed.span_id];
    const steps = list.filter((span) => span.name.startsWith('chat ') && turnIds.includes(span.parent_span_id ?? ''));
    expect(steps).toHaveLength(4);
    expect(steps[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted',
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(typeof steps[0]?.attributes['standard_agents.message.id']).toBe('string');
    const echo = named(list, 'execute_tool echo').find((span) => span.parent_span_id === turn.span_id);
    expect(echo?.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'gen_ai.tool.type': 'function' });
    expect(echo?.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    // The prompt tool's nested step and call are beneath its call.
    const summarizer = only(list, 'execute_tool summarizer');
    expect(summarizer.parent_span_id).toBe(turn.span_id);
    const nested = list.filter((span) => span.parent_span_id === summarizer.span_id).map((span) => span.name);
    expect(nested).toEqual(['chat scripted', 'execute_tool add', 'chat scripted']);
    // The child thread: the parent's call names it; the child's turn is beneath that call, in its own thread.
    const [helper, answered] = named(list, 'execute_tool helper') as [WireSpan, WireSpan];
    expect(helper.attributes['standard_agents.waiting']).toBe(true);
    expect(answered.parent_span_id).toBe(resumed.span_id);
    const childId = String(helper.attributes['standard_agents.child_thread.id']);
    const childSpans = await spans(childId, `?trace_id=${turn.trace_id}`);
    const childTurn = only(childSpans, 'invoke_agent helper');
    expect(childTurn.parent_span_id).toBe(helper.span_id);
    expect(childTurn.attributes['standard_agents.thread.id']).toBe(childId);
    expect(childSpans.map((span) => span.name)).toContain('execute_tool echo');
    // Each turn counts its own model calls: the resumed turn does not count the first one's again.
    const chats = list.filter((span) => span.name.startsWith('chat '));
    const tokens = (span: WireSpan) => Number(span.attributes['gen_ai.usage.input_tokens']);
    const summed = chats.reduce((total, span) => total + tokens(span), 0);
    expect(tokens(turn) + tokens(resumed)).toBe(summed);
    expect(tokens(turn)).toBeGreaterThan(0);
    // A failed call is an error span with its scrubbed message.
    const token = only(list, 'execute_tool use_token');
    expect(token.status).toBe('error');
    expect(token.attributes['error.type']).toBe('tool_error');
  });

  it('TRACE-4: the secret a call handled is in no attribute or status message, though contents are recorded', async () => {
    const id = await tracedTurn();
    const list = await spans(id);
    const text = JSON.stringify(list);
    expect(text).not.toContain(TOKEN);
    const token = only(list, 'execute_tool use_token');
    expect(token.status_message).toContain('service refused token');
    expect(String(token.attributes['gen_ai.tool.call.result'])).toContain('service refused token');
    // The call pass_token invoked was given the token in plain text: its span shows it hidden.
    const passing = only(list, 'execute_tool pass_token');
    const invoked = list.find((span) => span.parent_span_id === passing.span_id);
    expect(invoked?.name).toBe('execute_tool echo');
    expect(String(invoked?.attributes['gen_ai.tool.call.arguments'])).toMatch(/token \[[^\]]+\]/);
    const step = list.find((span) => span.name === 'chat scripted');
    expect(String(step?.attributes['gen_ai.input.messages'])).toContain('You are traced.');
  });

  it('TRACE-2: a caller traceparent is continued; a malformed one is ignored and the request still succeeds', async () => {
    const caller = { trace: '4bf92f3577b34da6a3ce929d0e0e4736', span: '00f067aa0ba902b7' };
    const id = await tracedTurn(`00-${caller.trace}-${caller.span}-01`);
    const [turn] = named(await spans(id), 'invoke_agent traced');
    expect(turn?.trace_id).toBe(caller.trace);
    expect(turn?.parent_span_id).toBe(caller.span);
    // Every corpus value a header can carry (fetch refuses line breaks and characters past Latin-1).
    const sendable = HOSTILE_TRACEPARENTS.filter((value) => /^[\x20-\x7e]*$/.test(value));
    expect(sendable.length).toBeGreaterThan(8);
    for (const bad of sendable) {
      const other = await createThread({ agent: 'traced', variables: { API_TOKEN: TOKEN, region: 'eu' } });
      const posted = await api(`/api/threads/${other}/messages`, {
        method: 'POST',
        json: { content: 'hi' },
        headers: { traceparent: bad },
      });
      expect(posted.status).toBe(202);
      await settled(other);
      const started = only(await spans(other), 'invoke_agent traced');
      expect(started.parent_span_id).toBeNull();
      expect(started.trace_id).not.toBe(caller.trace);
    }
  });

  it('TRACE-5: spans are listed by trace; a bad trace id is refused; a stranger sees none', async () => {
    const id = await tracedTurn();
    const [first] = await spans(id);
    const one = await spans(id, `?trace_id=${first?.trace_id}`);
    expect(one.every((span) => span.trace_id === first?.trace_id)).toBe(true);
    expect(await spans(id, `?trace_id=${'a'.repeat(32)}`)).toEqual([]);
    expect((await api(`/api/threads/${id}/spans?trace_id=nothex`)).status).toBe(400);
    expect((await api(`/api/threads/${id}/spans?traces=0`)).status).toBe(400);
    expect((await api(`/api/threads/${id}/spans`, { key: 'test-key-bob' })).status).toBe(404);
  });
});

describe('TRACE-1: a handoff', () => {
  it('TRACE-1: the turn of the agent a thread was handed to continues the trace of the turn that handed it over', async () => {
    const id = await createThread({
      agent: 'front',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'billing', arguments: { note: 'wants a refund' } }] },
            { text: 'billing here' },
          ]),
        },
      ],
    });
    await settled(id);
    const list = await spans(id);
    const front = only(list, 'invoke_agent front');
    const billing = only(list, 'invoke_agent billing');
    expect(front.attributes['standard_agents.outcome']).toBe('handoff');
    expect(billing).toMatchObject({ trace_id: front.trace_id, parent_span_id: front.span_id });
  });
});

describe("TRACE-2: a trace continued through the Worker's MCP server", () => {
  it("TRACE-2: an agent called over MCP with params._meta.traceparent runs its turn in the caller's trace", async () => {
    const worker = (exports as unknown as { default: Fetcher }).default;
    // Ajv, the client's default validator, compiles schemas to code, which workerd forbids.
    const client = new Client(
      { name: 'tracing-test', version: '1.0.0' },
      { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('https://runtime.test/mcp'), {
        fetch: (input, init) => worker.fetch(new Request(input, init)),
        requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
      }),
    );
    try {
      const caller = { trace: '0af7651916cd43dd8448eb211c80319c', span: 'b7ad6b7169203331' };
      const result = await client.callTool({
        name: 'general',
        arguments: { message: 'hello over MCP' },
        _meta: { traceparent: `00-${caller.trace}-${caller.span}-01` },
      });
      const { thread_id: id } = result.structuredContent as { thread_id: string };
      await settled(id);
      const [turn] = named(await spans(id), 'invoke_agent general');
      expect(turn).toMatchObject({ trace_id: caller.trace, parent_span_id: caller.span });
    } finally {
      await client.close();
    }
  });
});

describe('TRACE-5: what a thread keeps', () => {
  it('TRACE-5: the newest 200 traces are kept; older ones go, and the newest are listed first', async () => {
    const id = await createThread({ agent: 'traced', variables: { API_TOKEN: TOKEN, region: 'eu' } });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    const kept = await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
      const rows = new SpanRows(state.storage);
      const span = (n: number): FinishedSpan => ({
        traceId: n.toString(16).padStart(32, '0'),
        spanId: n.toString(16).padStart(16, '0'),
        parentSpanId: null,
        name: `invoke_agent t${n}`,
        kind: 'internal',
        startMs: n,
        endMs: n + 1,
        status: 'ok',
        attributes: {},
        events: [],
      });
      for (let n = 1; n <= SPAN_BATCHES_KEPT + 5; n++) rows.insert([span(n)]);
      // A new instance reads where the rows stand from storage.
      const again = new SpanRows(state.storage);
      again.insert([span(SPAN_BATCHES_KEPT + 6)]);
      return {
        all: again.list({ traces: SPAN_BATCHES_KEPT }).map((each) => each.startMs),
        newest: again.list({ traces: 2 }).map((each) => each.startMs),
        oldest: again.list({ traceId: span(1).traceId, traces: 20 }),
      };
    });
    expect(kept.all).toHaveLength(SPAN_BATCHES_KEPT);
    expect(kept.all[0]).toBe(7);
    expect(kept.newest).toEqual([SPAN_BATCHES_KEPT + 5, SPAN_BATCHES_KEPT + 6]);
    expect(kept.oldest).toEqual([]);
  });
});
