/**
 * End to end against a real `wrangler dev` serving the example agents, its model a local server that
 * speaks the OpenAI streaming protocol byte for byte. One conversation, driven over HTTP and
 * WebSocket as a client would: the model calls two tools in one step (arguments in fragments, an SSE
 * comment in the stream), then answers in several text deltas. The tests check what the client sees
 * (log, frames, replay after reconnecting) and what the model server received.
 */
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GoogleServer, startGoogleServer } from '../../harness/google-server.mjs';
import { type DemoMcpServer, startDemoMcpServer } from '../../harness/mcp-servers.mjs';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { ApiClient, type FrameRecorder } from './client.js';

const KEY = 'e2e-key';
const MODEL_KEY = 'x';
const SEARCH_ARGS = { query: 'websocket stream', limit: 2 };
const FINAL_TEXT =
  'It is noon. To follow a thread, open a WebSocket on /api/threads/:id/stream; reconnect with ?after=<seq>.';
const TOOL_STEP_USAGE = { prompt_tokens: 310, completion_tokens: 41, total_tokens: 351 };
const TEXT_STEP_USAGE = { prompt_tokens: 455, completion_tokens: 29, total_tokens: 484 };

let model: OpenAIServer;
let claude: AnthropicServer;
let gemini: GoogleServer;
let dev: WranglerDev;
let units: DemoMcpServer;
let api: ApiClient;

beforeAll(async () => {
  model = await startOpenAIServer();
  claude = await startAnthropicServer();
  gemini = await startGoogleServer({ apiKey: 'gemini-key' });
  units = await startDemoMcpServer();
  // THR-4: one Worker, each provider with its own key variable and endpoint; not in demo mode.
  dev = await startWranglerDev({
    vars: {
      API_KEYS: KEY,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: MODEL_KEY,
      MODEL: 'fake-model',
      ANTHROPIC_BASE_URL: claude.url,
      ANTHROPIC_API_KEY: 'claude-key',
      GOOGLE_BASE_URL: gemini.url,
      GOOGLE_API_KEY: 'gemini-key',
      // The units MCP server of the example `units` agent is a development host (LOCK-4).
      EGRESS_ALLOW_HOSTS: new URL(units.url).host,
    },
  });
  api = new ApiClient(dev.url, KEY);
});

afterAll(async () => {
  await dev?.stop();
  await Promise.all([model?.close(), claude?.close(), gemini?.close(), units?.close()]);
});

describe('wrangler dev', () => {
  it('THR-6: a request without a key is refused with 401', async () => {
    const response = await api.request('/api/threads', { method: 'POST', json: { agent: 'assistant' }, key: null });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  describe('a turn with two tool calls in one model step', () => {
    let threadId: string;
    let live: FrameRecorder;
    let log: Message[];

    beforeAll(async () => {
      model.reset();
      model.enqueue(
        {
          toolCalls: [
            { id: 'call_time', name: 'get_current_time', arguments: '{}' },
            { id: 'call_search', name: 'search_knowledge_base', arguments: JSON.stringify(SEARCH_ARGS) },
          ],
          chunkSize: 3,
          usage: TOOL_STEP_USAGE,
        },
        { text: FINAL_TEXT, chunkSize: 9, usage: TEXT_STEP_USAGE },
      );
      threadId = (await api.createThread({ agent: 'assistant' })).id;
      live = await api.openStream(threadId);
      await api.postMessage(threadId, 'What time is it, and how do I stream a thread?');
      await live.waitFor(
        (frames) => frames.some((frame) => frame.type === 'status' && frame.status !== 'running'),
        'the end of the turn',
      );
      await live.flush();
      const view = await api.thread(threadId);
      if (view.status !== 'idle' || view.last_error !== null) {
        throw new Error(`the turn failed: ${JSON.stringify(view)}\nwrangler dev output:\n${dev.output()}`);
      }
      log = await api.messages(threadId);
    });

    afterAll(() => {
      live?.close();
    });

    it('EXE-2: both calls run in call order and the log holds each result after its call', () => {
      expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
      const [, step, time, search, answer] = log as [Message, Message, Message, Message, Message];
      expect(
        step.tool_calls?.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)]),
      ).toEqual([
        ['call_time', 'get_current_time', {}],
        ['call_search', 'search_knowledge_base', SEARCH_ARGS],
      ]);
      expect(time).toMatchObject({ tool_call_id: 'call_time', tool_status: 'success' });
      expect(time.content).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(search).toMatchObject({ tool_call_id: 'call_search', tool_status: 'success' });
      expect(search.content).toContain('Streaming');
      expect(search.content).toContain('?after=');
      expect(answer).toMatchObject({ content: FINAL_TEXT, tool_calls: null });
    });

    it('THR-4: each step records the usage the model server reported', () => {
      const usage = ({ prompt_tokens, completion_tokens, total_tokens }: typeof TOOL_STEP_USAGE) => ({
        promptTokens: prompt_tokens,
        completionTokens: completion_tokens,
        totalTokens: total_tokens,
      });
      expect(log[1]?.metadata?.usage).toEqual(usage(TOOL_STEP_USAGE));
      expect(log[4]?.metadata?.usage).toEqual(usage(TEXT_STEP_USAGE));
    });

    it('THR-4: the second request carries the system prompt, the calls and both results in order, with the key', () => {
      expect(model.requests).toHaveLength(2);
      for (const request of model.requests) {
        expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', closedEarly: false });
        expect(request.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
        expect(request.body).toMatchObject({ model: 'fake-model', stream: true });
        expect(request.body?.tools?.map((tool) => tool.function.name)).toEqual([
          'get_current_time',
          'search_knowledge_base',
          'fetch_data',
          'summarize',
          'brainstorm',
          'run_code',
        ]);
      }
      const sent = model.requests[1]?.body?.messages ?? [];
      expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
      expect(sent[0]?.content).toContain('helpful assistant');
      expect(sent[1]?.content).toBe(log[0]?.content);
      expect(sent[2]?.tool_calls).toEqual(log[1]?.tool_calls);
      expect(sent.slice(3)).toEqual([
        { role: 'tool', tool_call_id: 'call_time', content: log[2]?.content },
        { role: 'tool', tool_call_id: 'call_search', content: log[3]?.content },
      ]);
    });

    it('THR-2: the live socket gets consecutive frames, text deltas and tool frames in call order', async () => {
      const last = (await api.thread(threadId)).last_frame_seq;
      expect(live.frames.map((frame) => frame.seq)).toEqual(Array.from({ length: last }, (_, index) => index + 1));

      const answerId = log[4]?.id;
      const deltas = live.frames.flatMap((frame) =>
        frame.type === 'message_delta' && frame.message_id === answerId ? [frame.delta] : [],
      );
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(FINAL_TEXT);

      const toolFrames = live.frames.flatMap((frame) =>
        frame.type === 'tool_started' || frame.type === 'tool_result' ? [`${frame.type} ${frame.tool_call_id}`] : [],
      );
      expect(toolFrames).toEqual([
        'tool_started call_time',
        'tool_result call_time',
        'tool_started call_search',
        'tool_result call_search',
      ]);

      const lastMessage = live.frames.findLastIndex(
        (frame) => frame.type === 'message' && frame.message.id === answerId,
      );
      const idle = live.frames.findLastIndex((frame) => frame.type === 'status' && frame.status === 'idle');
      expect(lastMessage).toBeGreaterThan(-1);
      expect(idle).toBeGreaterThan(lastMessage);
    });

    it('THR-2: a socket opened with ?after=n gets exactly the frames after n, none twice', async () => {
      const after = Math.floor(live.frames.length / 2);
      const late = await api.openStream(threadId, after);
      try {
        await late.flush();
        expect(late.frames).toEqual(live.frames.slice(after));
        expect(late.frames[0]?.seq).toBe(after + 1);
      } finally {
        late.close();
      }
    });
  });

  it('THR-4: an answer is read to the end of its body, even when the server ends it after [DONE]: the next step reuses the connection', async () => {
    model.reset();
    // The pause between writes puts the body's end well after [DONE]: a reader that stopped at [DONE]
    // would cut the connection, and the next step would need a new one.
    model.enqueue(
      { toolCalls: [{ id: 'call_time', name: 'get_current_time', arguments: '{}' }], chunkDelayMs: 20 },
      { text: 'It is noon.', chunkDelayMs: 20 },
    );
    const { id } = await api.createThread({ agent: 'assistant' });
    const live = await api.openStream(id);
    try {
      await api.postMessage(id, 'What time is it?');
      await live.waitFor(
        (frames) => frames.some((frame) => frame.type === 'status' && frame.status === 'idle'),
        'idle',
      );
    } finally {
      live.close();
    }
    expect((await api.messages(id)).at(-1)).toMatchObject({ role: 'assistant', content: 'It is noon.' });
    const [first, second] = model.requests;
    expect(model.requests).toHaveLength(2);
    expect(second?.connection).toBe(first?.connection);
    expect(first?.closedEarly).toBe(false);
  });

  describe('THR-4: one Worker, four providers, each model with its own credentials', () => {
    async function turn(agent: string): Promise<Message[]> {
      const { id } = await api.createThread({ agent });
      await api.postMessage(id, 'What time is it?');
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        const view = await api.endedTurn(id);
        if (view) {
          if (view.last_error) throw new Error(`${agent}: ${view.last_error}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return api.messages(id);
    }

    it('THR-4: the Claude assistant runs a tool round on the Messages API with ANTHROPIC_API_KEY', async () => {
      claude.reset();
      claude.enqueue(
        { toolCalls: [{ name: 'get_current_time', input: '{}', id: 'toolu_e2e_time' }] },
        { text: 'It is noon (Claude).' },
      );
      const log = await turn('assistant_claude');
      expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(log.at(-1)?.content).toBe('It is noon (Claude).');
      expect(claude.requests).toHaveLength(2);
      expect(claude.requests[0]?.headers['x-api-key']).toBe('claude-key');
      expect(claude.requests[0]?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
      const back = claude.requests[1]?.body.messages.at(-1);
      expect(back).toMatchObject({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_e2e_time', content: log[2]?.content }],
      });
    });

    it('THR-4: the Gemini assistant runs a tool round on streamGenerateContent with GOOGLE_API_KEY', async () => {
      gemini.reset();
      gemini.enqueue({ functionCalls: [{ name: 'get_current_time', args: {} }] }, { text: 'It is noon (Gemini).' });
      const log = await turn('assistant_gemini');
      expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(log.at(-1)?.content).toBe('It is noon (Gemini).');
      expect(gemini.requests).toHaveLength(2);
      expect(gemini.requests[0]?.path).toContain('/models/gemini-2.5-flash:streamGenerateContent');
      const back = gemini.requests[1]?.body?.contents?.at(-1);
      expect(back?.parts?.[0]).toMatchObject({ functionResponse: { name: 'get_current_time' } });
    });

    it('THR-4: the OpenAI-compatible assistant answers with OPENAI_API_KEY beside them', async () => {
      model.reset();
      model.enqueue({ text: 'It is noon (OpenAI).' });
      const log = await turn('assistant');
      expect(log.at(-1)?.content).toBe('It is noon (OpenAI).');
      expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
    });

    it('THR-4: the Workers AI assistant, its binding not declared here, fails naming it instead of inventing an answer', async () => {
      const { id } = await api.createThread({ agent: 'assistant_llama' });
      await api.postMessage(id, 'What time is it?');
      let view = await api.thread(id);
      for (const deadline = Date.now() + 30_000; view.status === 'running' && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        view = await api.thread(id);
      }
      expect(view.last_error).toBe(
        'model "llama" (workers-ai) is not configured: needs the Workers AI binding AI in wrangler.toml',
      );
      expect((await api.messages(id)).filter((message) => message.role === 'assistant')).toEqual([]);
    });
  });

  it("LOCK-4: the example units agent calls its MCP server's tools, offered with the server's schemas", async () => {
    model.reset();
    model.enqueue(
      { toolCalls: [{ id: 'call_clock', name: 'units__world_clock', arguments: '{"city":"Tokyo"}' }] },
      { text: 'It is evening in Tokyo.' },
    );
    const { id } = await api.createThread({ agent: 'units', variables: { UNITS_MCP_URL: units.url } });
    const live = await api.openStream(id);
    await api.postMessage(id, 'What time is it in Tokyo?');
    await live.waitFor(
      (frames) => frames.some((frame) => frame.type === 'status' && frame.status !== 'running'),
      'the end of the turn',
    );
    live.close();
    const log = await api.messages(id);
    expect(log.at(-1)?.content).toBe('It is evening in Tokyo.');
    const result = log.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ name: 'units__world_clock', tool_status: 'success' });
    expect(result?.content).toContain('Tokyo');
    const offered = model.requests[0]?.body?.tools ?? [];
    expect(offered.map((tool) => tool.function.name).sort()).toEqual(['units__convert_units', 'units__world_clock']);
    const clock = offered.find((tool) => tool.function.name === 'units__world_clock');
    expect(clock?.function.parameters).toMatchObject({ type: 'object', required: ['city'] });
  });

  describe('CODE-1: a run_code program calling two tools of the example assistant', () => {
    const PROGRAM = `const time = await tools.get_current_time({});
const docs = await tools.search_knowledge_base({ query: 'websocket stream', limit: 1 });
console.log('looked up', docs.length, 'characters');
return { time, firstLine: docs.split('\\n')[0] };`;

    async function programTurn(code: string, answer: string) {
      model.reset();
      model.enqueue(
        { toolCalls: [{ id: 'call_program', name: 'run_code', arguments: JSON.stringify({ code }) }] },
        { text: answer },
      );
      const { id } = await api.createThread({ agent: 'assistant' });
      const live = await api.openStream(id);
      await api.postMessage(id, 'What time is it, and what do the docs say about streaming?');
      await live.waitFor(
        (frames) => frames.some((frame) => frame.type === 'status' && frame.status !== 'running'),
        'the end of the turn',
      );
      await live.flush();
      live.close();
      return { id, frames: live.frames, log: await api.messages(id), nested: await api.messages(id, 1) };
    }

    it('CODE-1, THR-7: the program returns a combined answer; each inner call is in the log and the stream', async () => {
      const { frames, log, nested } = await programTurn(PROGRAM, 'Done.');
      const result = log.find((message) => message.role === 'tool' && message.name === 'run_code');
      expect(result?.tool_status, result?.content ?? '').toBe('success');
      const combined = JSON.parse((result?.content ?? '').split('\n\nLogs:')[0] ?? '') as {
        time: string;
        firstLine: string;
      };
      expect(combined.time).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(combined.firstLine.length).toBeGreaterThan(0);
      expect(result?.content).toContain('[log] looked up');
      const inner = nested.filter(
        (message) => message.metadata?.invoked_by === 'call_program' && message.role === 'tool',
      );
      expect(inner.map((message) => [message.tool_call_id, message.name, message.tool_status])).toEqual([
        ['call_program.1', 'get_current_time', 'success'],
        ['call_program.2', 'search_knowledge_base', 'success'],
      ]);
      const started = frames.filter((frame) => frame.type === 'tool_started').map((frame) => frame.tool_call_id);
      expect(started).toEqual(['call_program', 'call_program.1', 'call_program.2']);
      expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
      // The system prompt shows the program's API.
      const system = model.requests[0]?.body?.messages?.find((message) => message.role === 'system');
      expect(JSON.stringify(system)).toContain('search_knowledge_base(args: {');
    });

    it('CODE-1: an endless loop is stopped by the sandbox and the turn goes on', async () => {
      const { log } = await programTurn('while (true) {}', 'The loop was stopped.');
      const result = log.find((message) => message.role === 'tool' && message.name === 'run_code');
      expect(result?.tool_status).toBe('error');
      expect(result?.content).toMatch(/loop iterations|time limit/);
      expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'The loop was stopped.' });
    });
  });
});
