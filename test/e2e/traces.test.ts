/**
 * Traces end to end under a real `wrangler dev` (test/e2e/traces-app), sent to a local OTLP receiver
 * (harness/otlp-receiver.mjs) as a collector would get them (TRACE-1 to TRACE-7). One turn, started
 * with a caller's `traceparent`, makes a tool call, a prompt tool call whose own step calls a tool, a
 * call of an agent offered as a tool (a child thread, another Durable Object) and an MCP call (a local
 * MCP server); the received span tree must have the caller's span as its root's parent, every span
 * beneath the one it ran under, the GenAI attributes with the values the model server and the tools
 * gave, and the thread's secret in none of its attributes, status messages or events. Then the
 * collector fails (500), hangs and is closed, and turns go on as before.
 *
 * The local model server answers by the prompt (its system message): `traced` gets `FULL` (all the
 * calls at once), `ONE` (one `echo` call) or anything else (an echo of it); `summarize` calls `add`;
 * `helping` (the child) calls `echo`; a tool result is answered with text.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpTestServer, startMcpServer } from '../../harness/mcp-servers.mjs';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../harness/otlp-receiver.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const KEY = 'traces-e2e-key';
const MODEL = 'traced-model';
const SERVICE = 'traces-e2e';
const SECRET = `canary-${randomBytes(12).toString('hex')}`;
/** Every model answer reports these, so each `chat` span must carry them. */
const USAGE = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };
/** Short, so a hanging collector is cut within the test; a local receiver answers in milliseconds. */
const EXPORT_TIMEOUT_MS = 1500;

let model: OpenAIServer;
let mcp: McpTestServer;
let receiver: OtlpReceiver;
let dev: WranglerDev;
let api: ApiClient;

type Body = { messages?: { role: string; content?: unknown }[] };

/** The scripted answer for the prompt whose system message the request starts with. */
function respond(body: Body) {
  const system = String(body.messages?.[0]?.content ?? '');
  const last = body.messages?.at(-1);
  const content = typeof last?.content === 'string' ? last.content : '';
  const calls = (list: { name: string; id: string; args: unknown }[]) => ({
    usage: USAGE,
    toolCalls: list.map(({ name, id, args }) => ({ name, id, arguments: JSON.stringify(args) })),
  });
  if (last?.role === 'tool') return { usage: USAGE, text: system.includes('You summarize.') ? 'the sum is 5' : 'done' };
  if (system.includes('You summarize.')) return calls([{ name: 'add', id: 'call_add', args: { a: 2, b: 3 } }]);
  if (system.includes('You help.'))
    return calls([{ name: 'echo', id: 'call_child_echo', args: { text: 'from the child' } }]);
  if (content === 'ONE') return calls([{ name: 'echo', id: 'call_one', args: { text: 'one' } }]);
  if (content === 'FULL') {
    return calls([
      { name: 'echo', id: 'call_echo', args: { text: `the token is ${SECRET}` } },
      { name: 'use_token', id: 'call_token', args: {} },
      { name: 'summarize', id: 'call_summarize', args: { message: 'add two and three' } },
      { name: 'helper', id: 'call_helper', args: { question: 'help me' } },
      { name: 'local__echo', id: 'call_mcp', args: { text: 'over mcp' } },
    ]);
  }
  return { usage: USAGE, text: `echo: ${content}` };
}

beforeAll(async () => {
  model = await startOpenAIServer({ respond });
  mcp = await startMcpServer({ tools: 'basic' });
  receiver = await startOtlpReceiver();
  dev = await startWranglerDev({
    config: 'test/e2e/traces-app/wrangler.toml',
    snapshot: true,
    inspector: false,
    vars: {
      API_KEYS: KEY,
      SECRETS_KEY: 'traces-e2e-secrets-master-key',
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'x',
      MODEL,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_TIMEOUT: String(EXPORT_TIMEOUT_MS),
      OTEL_SERVICE_NAME: SERVICE,
      // The local MCP server is on 127.0.0.1, a host the egress policy refuses unless a deployment lists it.
      EGRESS_ALLOW_HOSTS: new URL(mcp.url).host,
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    },
  });
  api = new ApiClient(dev.url, KEY);
});

afterAll(async () => {
  await dev?.stop();
  await receiver?.close();
  await mcp?.close();
  await model?.close();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const variables = () => ({ SERVICE_TOKEN: SECRET, MCP_URL: mcp.url });

/** A request with a `traceparent` header (or none). */
function post(path: string, json: unknown, traceparent?: string): Promise<Response> {
  return fetch(`${dev.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      ...(traceparent === undefined ? {} : { traceparent }),
    },
    body: JSON.stringify(json),
  });
}

/** Polls the thread until its turn has ended (a blocking child's answer awaited); it must end idle. */
async function settled(id: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await api.endedTurn(id);
    if (view && (view.status as string) !== 'waiting') {
      expect(view, 'the turn ended idle').toMatchObject({ status: 'idle', last_error: null });
      return;
    }
    if (Date.now() > deadline) throw new Error(`thread ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const attribute = (span: ReceivedSpan | undefined, name: string) => span?.attributes[name];
const threadOf = (span: ReceivedSpan) => attribute(span, 'standard_agents.thread.id');

/** JSON of anything the receiver decoded (its int64 values are bigints). */
const json = (value: unknown) =>
  JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? String(item) : item));

interface WireSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  attributes: Record<string, unknown>;
}

const storedSpans = async (id: string, query = '') =>
  (await api.json<{ spans: WireSpan[] }>(`/api/threads/${id}/spans${query}`)).spans;

describe('a turn of every kind of call, traced to a collector', () => {
  const caller = { traceId: hex(16), spanId: hex(8) };
  let parent: string;
  let child: string;
  let spans: ReceivedSpan[];
  /** The turn the caller's message started, and the turn resuming it once the child answered. */
  let turn: ReceivedSpan;
  let resumed: ReceivedSpan;
  /** The only span named `name` under `above`. */
  const under = (above: ReceivedSpan | undefined, name: string) => {
    const found = spans.filter((span) => span.parentSpanId === above?.spanId && span.name === name);
    expect(found, `one ${name} under ${above?.name}`).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };
  const names = (above: ReceivedSpan | undefined) =>
    spans
      .filter((span) => span.parentSpanId === above?.spanId)
      .map((span) => span.name)
      .sort();
  const chat = `chat ${MODEL}`;

  beforeAll(async () => {
    parent = (await api.createThread({ agent: 'traced', variables: variables() })).id;
    const posted = await post(
      `/api/threads/${parent}/messages`,
      { content: 'FULL' },
      `00-${caller.traceId}-${caller.spanId}-01`,
    );
    expect(posted.status).toBe(202);
    await settled(parent);
    // The blocking child suspends the turn; the turn resuming it with the answer is exported last.
    spans = await receiver.waitFor(
      (all) =>
        all.some(
          (span) =>
            span.traceId === caller.traceId &&
            span.name === 'invoke_agent traced' &&
            attribute(span, 'standard_agents.outcome') === 'response',
        ),
      20_000,
    );
    spans = spans.filter((span) => span.traceId === caller.traceId);
    turn = spans.find((span) => span.parentSpanId === caller.spanId) as ReceivedSpan;
    resumed = under(turn, 'invoke_agent traced');
    child = String(threadOf(spans.find((span) => span.name === 'invoke_agent helper') as ReceivedSpan));
  });

  it("TRACE-2, TRACE-1: the turn is a child of the caller's span; its steps and calls are beneath it", () => {
    expect(turn).toMatchObject({ name: 'invoke_agent traced', kind: 1, traceId: caller.traceId });
    expect(names(turn)).toEqual(
      [
        chat,
        'execute_tool echo',
        'execute_tool helper',
        'execute_tool summarize',
        'execute_tool use_token',
        'invoke_agent traced',
      ].sort(),
    );
    // The call of the blocking subagent waits; the turn that resumes with its answer runs the rest.
    expect(attribute(under(turn, 'execute_tool helper'), 'standard_agents.waiting')).toBe(true);
    expect(names(resumed)).toEqual([chat, 'execute_tool helper', 'execute_tool local__echo']);
    // The prompt tool's own steps and its call run beneath its call.
    expect(names(under(turn, 'execute_tool summarize'))).toEqual([chat, chat, 'execute_tool add']);
  });

  it("TRACE-3: an MCP request is a client span beneath the MCP tool's call", () => {
    const request = under(under(resumed, 'execute_tool local__echo'), 'tools/call echo');
    expect(request.kind).toBe(3);
    expect(request.status.code).not.toBe(2);
    expect(request.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'standard_agents.mcp.server': 'local',
      'standard_agents.thread.id': parent,
    });
    expect(mcp.calls.map((call) => call.tool)).toEqual(['echo']);
  });

  it('TRACE-3: the child thread, another Durable Object, continues the trace beneath the call that started it', () => {
    const call = under(turn, 'execute_tool helper');
    const childTurn = under(call, 'invoke_agent helper');
    expect(child).not.toBe(parent);
    expect(threadOf(turn)).toBe(parent);
    expect(attribute(call, 'standard_agents.child_thread.id')).toBe(child);
    expect(childTurn.traceId).toBe(caller.traceId);
    expect(childTurn.attributes).toMatchObject({ 'gen_ai.agent.name': 'helper', 'gen_ai.conversation.id': child });
    expect(names(childTurn)).toEqual([chat, chat, 'execute_tool echo']);
    expect(attribute(under(childTurn, 'execute_tool echo'), 'gen_ai.tool.call.id')).toBe('call_child_echo');
    expect(attribute(under(resumed, 'execute_tool helper'), 'gen_ai.tool.call.result')).toBe('done');
  });

  it('TRACE-3, TRACE-6: GenAI attributes carry what the model server and the tools gave', () => {
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'traced',
      'gen_ai.conversation.id': parent,
      'standard_agents.thread.id': parent,
      'tenant.id': 'default',
      'enduser.id': expect.any(String),
    });
    expect(turn.resource).toMatchObject({ 'service.name': SERVICE });
    const chats = spans.filter((span) => span.name === chat);
    expect(chats).toHaveLength(6);
    for (const step of chats) {
      expect(step).toMatchObject({ kind: 3, status: { code: 1 } });
      expect(step.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': MODEL,
        'gen_ai.response.model': MODEL,
        'gen_ai.usage.input_tokens': USAGE.prompt_tokens,
        'gen_ai.usage.output_tokens': USAGE.completion_tokens,
      });
    }
    const reasons = chats.map((step) => json(attribute(step, 'gen_ai.response.finish_reasons'))).sort();
    expect(reasons).toEqual([...Array(3).fill('["stop"]'), ...Array(3).fill('["tool_calls"]')]);
    // Each turn's totals are its own model steps' (the prompt tool's included): the turn and the one its
    // resumption makes add up to the thread's steps, none counted twice.
    const parentSteps = chats.filter((step) => threadOf(step) === parent).length;
    const both = (key: string) => Number(turn.attributes[key]) + Number(resumed.attributes[key]);
    expect(both('gen_ai.usage.input_tokens')).toBe(USAGE.prompt_tokens * parentSteps);
    expect(both('gen_ai.usage.output_tokens')).toBe(USAGE.completion_tokens * parentSteps);
    expect(Number(resumed.attributes['gen_ai.usage.input_tokens'])).toBeLessThan(USAGE.prompt_tokens * parentSteps);
    const calls = spans.filter((span) => span.name.startsWith('execute_tool '));
    expect(
      calls.map((span) => `${attribute(span, 'gen_ai.tool.name')}/${attribute(span, 'gen_ai.tool.call.id')}`).sort(),
    ).toEqual(
      [
        'add/call_add',
        'echo/call_child_echo',
        'echo/call_echo',
        'helper/call_helper',
        'helper/call_helper',
        'local__echo/call_mcp',
        'summarize/call_summarize',
        'use_token/call_token',
      ].sort(),
    );
    for (const call of calls) expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool' });
    const failed = under(turn, 'execute_tool use_token');
    expect(failed).toMatchObject({ status: { code: 2 }, attributes: { 'error.type': 'tool_error' } });
    expect(receiver.received().every((request) => request.contentType === 'application/x-protobuf')).toBe(true);
  });

  it("TRACE-4: the secret, in a call's arguments and a tool's failure, is in no attribute, status message or event", () => {
    const echo = under(turn, 'execute_tool echo');
    const failed = under(turn, 'execute_tool use_token');
    // The contents are recorded (capture is on), the secret replaced where it stood.
    expect(attribute(echo, 'gen_ai.tool.call.arguments')).toBe('{"text":"the token is [secret]"}');
    expect(attribute(echo, 'gen_ai.tool.call.result')).toBe('the token is [secret]');
    expect(failed.status.message).toContain('the service refused token [secret]');
    expect(attribute(under(turn, 'execute_tool summarize'), 'gen_ai.tool.call.result')).toBe('the sum is 5');
    expect(json(receiver.spans())).not.toContain(SECRET);
  });
  it('TRACE-5: GET /api/threads/:id/spans serves the same spans the collector got for the thread', async () => {
    for (const id of [parent, child]) {
      const stored = await storedSpans(id, `?trace_id=${caller.traceId}`);
      const sent = spans.filter((span) => threadOf(span) === id);
      expect(stored.map((span) => span.span_id).sort()).toEqual(sent.map((span) => span.spanId).sort());
      expect(json(stored)).not.toContain(SECRET);
    }
  });

  it('TRACE-2: a malformed traceparent is ignored: the request succeeds and its turn begins a trace of its own', async () => {
    const bad = [
      `00-${caller.traceId.toUpperCase()}-${caller.spanId}-01`,
      `ff-${caller.traceId}-${caller.spanId}-01`,
      `00-${'0'.repeat(32)}-${caller.spanId}-01`,
      'not a traceparent',
    ];
    for (const traceparent of bad) {
      const created = await post(
        '/api/threads',
        { agent: 'traced', variables: variables(), messages: [{ content: 'hello' }] },
        traceparent,
      );
      expect(created.status, traceparent).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await settled(id);
      const turns = (await storedSpans(id)).filter((span) => span.name === 'invoke_agent traced');
      expect(turns, traceparent).toEqual([expect.objectContaining({ parent_span_id: null })]);
      expect(turns[0]?.trace_id).not.toBe(caller.traceId);
      expect(turns[0]?.trace_id).not.toBe('0'.repeat(32));
    }
  });
});

describe('a collector that fails, hangs or is gone', () => {
  let thread: string;
  const times: Record<string, number[]> = {};

  beforeAll(async () => {
    thread = (await api.createThread({ agent: 'traced', variables: variables() })).id;
  });

  /** A turn of one tool call, timed from the POST to the thread's idle frame on its WebSocket. */
  async function timedTurn(): Promise<number> {
    const { last_frame_seq: after } = await api.thread(thread);
    const stream = await api.openStream(thread, after);
    try {
      const sentAt = performance.now();
      await api.postMessage(thread, 'ONE');
      await stream.waitFor(
        (frames) => frames.some((frame) => frame.type === 'status' && frame.status === 'idle'),
        'the turn to end',
      );
      const took = performance.now() - sentAt;
      expect(stream.frames.filter((frame) => frame.type === 'error')).toEqual([]);
      expect(await api.thread(thread)).toMatchObject({ status: 'idle', last_error: null });
      return took;
    } finally {
      stream.close();
    }
  }

  async function turns(label: string, count = 5): Promise<void> {
    times[label] = [];
    for (let turn = 0; turn < count; turn++) times[label].push(await timedTurn());
  }

  afterAll(() => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const line = Object.entries(times).map(([label, values]) => `${label} ${median(values).toFixed(0)} ms`);
    console.log(`median turn (POST to idle, one tool call) with the collector: ${line.join(', ')}`);
  });

  it('TRACE-6: with the collector up, each turn is exported', async () => {
    const before = receiver.received().length;
    await turns('up');
    await receiver.waitFor((all) => all.filter((span) => threadOf(span) === thread).length >= 5 * 4, 10_000);
    expect(receiver.received().length).toBeGreaterThan(before);
  });

  it('TRACE-7: a collector answering 500 costs the turns nothing', async () => {
    receiver.answerWith('500');
    const before = receiver.received().length;
    await turns('answering 500');
    // Each turn's export was tried, and refused.
    const refused = () => receiver.received().slice(before);
    await expect.poll(() => refused().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(refused().every((request) => request.status === 500)).toBe(true);
    await expect
      .poll(() => dev.output().includes('failed, the collector answered 500'), { timeout: 10_000 })
      .toBe(true);
  });

  it('TRACE-7: a collector that takes requests and never answers, longer than the export timeout, costs the turns nothing', async () => {
    receiver.answerWith('hang');
    const before = receiver.received().length;
    // Turns go on, one after another, for twice the export timeout while the collector hangs.
    times.hanging = [];
    const started = performance.now();
    while (performance.now() - started < 2 * EXPORT_TIMEOUT_MS) times.hanging.push(await timedTurn());
    const hung = receiver.received().slice(before);
    expect(hung.length).toBeGreaterThanOrEqual(1);
    expect(hung.every((request) => request.status === 0)).toBe(true);
    // Each hanging request was cut at the timeout, and said so in one log line.
    await expect
      .poll(() => dev.output().includes(`failed, no answer within ${EXPORT_TIMEOUT_MS} ms`), { timeout: 10_000 })
      .toBe(true);
    // Once the collector answers again, the next turn's spans arrive.
    const exported = (all: ReceivedSpan[]) =>
      all.filter((span) => span.name === 'invoke_agent traced' && threadOf(span) === thread).length;
    const exportedBefore = exported(receiver.spans());
    receiver.answerWith('ok');
    await timedTurn();
    await receiver.waitFor((all) => exported(all) > exportedBefore, 10_000);
  });

  it('TRACE-7: a collector that is gone (its port closed) costs the turns nothing', async () => {
    await receiver.close();
    const logged = dev.output().length;
    await turns('closed');
    await expect
      .poll(() => dev.output().slice(logged).includes(`span export to ${receiver.endpoint}: failed`), {
        timeout: 10_000,
      })
      .toBe(true);
    // No log line quotes the secret either.
    expect(dev.output()).not.toContain(SECRET);
    expect(await api.thread(thread)).toMatchObject({ status: 'idle' });
    // The spans are still the thread's: stored, served, only not sent.
    const stored = await storedSpans(thread, '?traces=200');
    expect(stored.filter((span) => span.name === 'invoke_agent traced').length).toBeGreaterThanOrEqual(21);
  });
});
