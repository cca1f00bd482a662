/**
 * A prompt run nested by a prompt tool (SUB-1) takes the same model step as a side's turn: its
 * history is compacted when it outgrows the model's window, a request that still does not fit ends
 * the run with context_overflow instead of reaching the model (THR-4), its own `maxToolRounds`
 * holds calls unexecuted, also across a restart (KIND-7), its final answer is held to its response
 * format, and text it streamed but never stored is withdrawn by `message_abandoned` (THR-2, THR-3).
 * In each case the caller's turn goes on with the prompt tool's result.
 */
import {
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type MaxToolRounds,
  type ModelDefinition,
  type ModelMessage,
  type ScriptedReply,
  type ScriptedRequest,
  type TurnContext,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../../../src/engine/ports/index.js';
import type { AppDefinitions } from '../../../../src/engine/registry/index.js';
import { ROUND_LIMIT_MESSAGE } from '../../../../src/engine/step/index.js';
import { ScriptedProvider } from '../../../../src/providers/scripted/scripted.js';
import { ALLOW_EVERYTHING, createHarness, deferred, MemoryThreadStore } from '../../../support/memory-store.js';

type Script = (request: ScriptedRequest) => ScriptedReply;

const text = (message: ModelMessage | undefined) => (typeof message?.content === 'string' ? message.content : '');

/** A compact view of a request: `role:content`, tool calls and results by id. */
const view = (messages: readonly ModelMessage[]) =>
  messages.map((m) => {
    if (m.role === 'tool') return `tool(${m.tool_call_id}):${m.content}`;
    if (m.role === 'assistant' && m.tool_calls) return `assistant[${m.tool_calls.map((c) => c.id).join(',')}]`;
    return `${m.role}:${text(m)}`;
  });

/** The main model calls `summarize` once, then answers with the tool's result. */
const caller =
  (message: string): Script =>
  (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: `main got: ${text(last)}` };
    return { toolCalls: [{ id: 'call_p', name: 'summarize', arguments: { message } }] };
  };

/** The sub model's steps, by how many it has taken in its run. */
const steps =
  (...replies: ScriptedReply[]): Script =>
  (request) =>
    replies[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'no reply scripted' };

function counter() {
  const runs: string[] = [];
  const add = defineTool({
    description: 'Add two numbers',
    args: z.object({ a: z.number(), b: z.number() }),
    execute: async (_state, { a, b }) => {
      runs.push(`${a}+${b}`);
      return { status: 'success', result: String(a + b) };
    },
  });
  return { runs, add };
}

function app(options: {
  main: Script;
  sub: Script;
  subModel?: Partial<ModelDefinition>;
  subPrompt?: Record<string, unknown>;
  add?: ReturnType<typeof counter>['add'];
}): AppDefinitions {
  return {
    tools: { add: options.add ?? counter().add },
    models: [
      defineModel({ name: 'main_model', provider: 'scripted', script: options.main }),
      defineModel({ name: 'sub_model', provider: 'scripted', script: options.sub, ...options.subModel }),
      defineModel({ name: 'cheap', provider: 'scripted', script: [{ text: 'EARLIER: three long notes.' }] }),
    ],
    prompts: [
      definePrompt({ name: 'main', prompt: 'Main.', model: 'main_model', tools: ['summarize'] }),
      definePrompt({
        name: 'summarize',
        toolDescription: 'Summarize a text',
        prompt: 'Sub.',
        model: 'sub_model',
        tools: ['add'],
        exposeAsTool: true,
        includeChat: false,
        ...options.subPrompt,
      }),
    ],
    agents: [defineAgent({ name: 'main', sideA: { prompt: 'main' } })],
    permissions: ALLOW_EVERYTHING,
  };
}

const topResult = (store: MemoryThreadStore) =>
  store.messages().find((m) => m.role === 'tool' && m.depth === 0 && m.tool_call_id === 'call_p');

describe('THR-4: a nested prompt within its context window', () => {
  it('THR-4: a nested run whose history outgrows the window is compacted, once, and the caller is unharmed', async () => {
    const h = createHarness({
      definitions: app({
        main: caller('x'),
        sub: steps({ toolCalls: [{ id: 'c_add', name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'sub done' }),
        subModel: { contextWindow: 600, compactWith: 'cheap', settings: { maxOutputTokens: 100 } },
        subPrompt: { includeChat: true },
      }),
      agent: 'main',
    });
    const long = 'y'.repeat(800);
    for (let note = 0; note < 3; note++) {
      h.store.append({ role: 'user', content: `note ${note}: ${long}` });
      h.store.append({ role: 'assistant', content: 'noted' });
    }
    expect(await h.send('please summarize')).toEqual({ kind: 'done', reason: 'response' });

    // The summary is the nested run's: one level down, marked with the call, silent.
    const markers = h.store.messages().filter((m) => m.metadata?.compaction);
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({
      role: 'system',
      silent: true,
      depth: 1,
      content: 'EARLIER: three long notes.',
      metadata: { prompt_call: 'call_p', compaction: { model: 'cheap' } },
    });
    // Summarised once; both nested steps are sent the summary in place of the conversation before.
    expect(h.requests.map((r) => r.model)).toEqual(['main_model', 'cheap', 'sub_model', 'sub_model', 'main_model']);
    const summary = 'system:Summary of the conversation before:\nEARLIER: three long notes.';
    expect(view(h.requests[2]?.messages ?? [])).toEqual(['system:Sub.', summary, 'user:x']);
    expect(view(h.requests[3]?.messages ?? [])).toEqual([
      'system:Sub.',
      summary,
      'user:x',
      'assistant[c_add]',
      'tool(c_add):5',
    ]);
    expect(h.frames.some((frame) => frame.type === 'usage' && frame.model === 'cheap')).toBe(true);
    // The caller's conversation is untouched: its model is still sent every note, no summary.
    const callerView = view(h.requests[4]?.messages ?? []);
    expect(callerView.filter((line) => line.startsWith('user:note '))).toHaveLength(3);
    expect(callerView.some((line) => line.includes('Summary of the conversation before'))).toBe(false);
    expect(topResult(h.store)?.content).toBe('sub done');
  });

  it('THR-4: a nested request that cannot fit ends the run with context_overflow, never reaching its model', async () => {
    const h = createHarness({
      definitions: app({
        main: caller('z'.repeat(800)),
        sub: steps({ text: 'never' }),
        subModel: { contextWindow: 100, settings: { maxOutputTokens: 10 } },
      }),
      agent: 'main',
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests.map((r) => r.model)).toEqual(['main_model', 'main_model']);
    expect(topResult(h.store)).toMatchObject({ tool_status: 'error' });
    expect(topResult(h.store)?.content).toMatch(
      /^Error: prompt "summarize" failed: The current turn needs about \d+ tokens, more than the 90 model "sub_model" can take \(contextWindow 100\)/,
    );
    // Nothing of the nested run but its first message; the caller's model heard why.
    expect(
      h.store
        .messages()
        .filter((m) => m.depth === 1)
        .map((m) => m.role),
    ).toEqual(['user']);
    expect(h.byRole('assistant').at(-1)?.content).toMatch(/^main got: Error: prompt "summarize" failed/);
  });
});

describe('KIND-7: a nested prompt’s own round limit', () => {
  const second = { toolCalls: [{ id: 'c2', name: 'add', arguments: { a: 2, b: 2 } }] };

  it('KIND-7: maxToolRounds holds the nested calls past the limit; the result reports them not executed', async () => {
    const { runs, add } = counter();
    const asked: TurnContext[] = [];
    const limit: MaxToolRounds = (turn) => {
      asked.push(turn);
      return turn.round < 1;
    };
    const h = createHarness({
      definitions: app({
        main: caller('x'),
        sub: steps({ toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 1 } }] }, second, { text: 'never' }),
        subPrompt: { maxToolRounds: limit },
        add,
      }),
      agent: 'main',
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['1+1']);
    // The nested run counts its own rounds and steps.
    expect(asked.map(({ round, stepCount }) => ({ round, stepCount }))).toEqual([
      { round: 0, stepCount: 1 },
      { round: 1, stepCount: 2 },
    ]);
    expect(h.requests.map((r) => r.model)).toEqual(['main_model', 'sub_model', 'sub_model', 'main_model']);
    const held = h.store
      .messages()
      .filter((m) => m.depth === 1 && m.role === 'assistant')
      .at(-1);
    expect(held).toMatchObject({ metadata: { round_limit: true } });
    expect(held?.tool_calls?.map((call) => call.id)).toEqual(['c2']);
    expect(JSON.parse(topResult(h.store)?.content ?? '')).toEqual({
      response: '',
      errors: [{ name: 'add', arguments: { a: 2, b: 2 }, status: 'error', error: ROUND_LIMIT_MESSAGE }],
    });
  });

  it('KIND-7: nested calls held by the limit stay unexecuted when the thread restarts mid-call', async () => {
    const { runs, add } = counter();
    const store = new MemoryThreadStore({ agentId: 'main' });
    store.append({ role: 'user', content: 'go' });
    const call = {
      id: 'call_p',
      type: 'function' as const,
      function: { name: 'summarize', arguments: '{"message":"x"}' },
    };
    const step = store.append({ role: 'assistant', content: null, tool_calls: [call] });
    store.markToolStarted('call_p');
    const place = { depth: 1, parent_id: step.id, metadata: { prompt_call: 'call_p' } };
    store.append({ role: 'user', content: 'x', ...place });
    // The run's step was refused and stored so; the thread stopped before the call's result.
    const refused = { id: 'c9', type: 'function' as const, function: { name: 'add', arguments: '{"a":9,"b":9}' } };
    store.append({
      role: 'assistant',
      content: 'adding',
      tool_calls: [refused],
      depth: 1,
      parent_id: step.id,
      metadata: { prompt_call: 'call_p', round_limit: true },
    });
    const h = createHarness({
      definitions: app({ main: caller('x'), sub: steps({ text: 'never' }), subPrompt: { maxToolRounds: 0 }, add }),
      agent: 'main',
      store,
    });
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual([]);
    expect(h.requests.map((r) => r.model)).toEqual(['main_model']);
    expect(h.store.messages().filter((m) => m.depth === 1 && m.role === 'tool')).toEqual([]);
    expect(JSON.parse(topResult(h.store)?.content ?? '')).toEqual({
      response: 'adding',
      errors: [{ name: 'add', arguments: { a: 9, b: 9 }, status: 'error', error: ROUND_LIMIT_MESSAGE }],
    });
  });
});

describe('THR-4: a nested answer held to its response format', () => {
  it('THR-4: a nested final answer that does not match the prompt’s response format fails the call', async () => {
    const h = createHarness({
      definitions: app({
        main: caller('x'),
        sub: steps({ text: '{"town":"Oslo"}' }),
        subPrompt: { modelSettings: { responseFormat: { schema: z.object({ city: z.string() }) } } },
      }),
      agent: 'main',
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(topResult(h.store)).toMatchObject({ tool_status: 'error' });
    expect(topResult(h.store)?.content).toMatch(/^Error: prompt "summarize" failed: .*response format.*city/);
  });
});

/** A model that streams `streamed`, then fails with `error` (or, without one, waits until stopped). */
class StreamingFailure implements Provider {
  /** Settled once the text is streamed. */
  readonly streaming = deferred();
  constructor(
    private readonly streamed: string,
    private readonly error?: string,
  ) {}

  async complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    handlers.onTextDelta?.(this.streamed.slice(0, 5));
    handlers.onTextDelta?.(this.streamed.slice(5));
    this.streaming.resolve();
    if (this.error) throw new Error(this.error);
    return new Promise((_resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('stopped')));
    });
  }
}

describe('THR-2, THR-3: text a nested step streamed but never stored', () => {
  const main = defineModel({ name: 'main_model', provider: 'scripted', script: caller('x') });

  it('THR-2: a nested model failing after some text abandons that text; the caller goes on', async () => {
    const failing = new StreamingFailure('partial nested text', 'model lost');
    const h = createHarness({
      definitions: app({ main: caller('x'), sub: steps({ text: 'unused' }) }),
      agent: 'main',
      provider: (model) => (model.name === 'sub_model' ? failing : new ScriptedProvider(main.script ?? [], model.name)),
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const deltas = h.frames.filter((frame) => frame.type === 'message_delta');
    const nestedId = deltas[0]?.type === 'message_delta' ? deltas[0].message_id : '';
    expect(h.frames).toContainEqual({ type: 'message_abandoned', message_id: nestedId });
    // Abandoned after its last delta, and no message ever took that id.
    const ofNested = h.frames.filter((frame) => 'message_id' in frame && frame.message_id === nestedId);
    expect(ofNested.map((frame) => frame.type)).toEqual(['message_delta', 'message_delta', 'message_abandoned']);
    expect(h.store.messages().some((m) => m.id === nestedId)).toBe(false);
    expect(h.store.getValue('turn.streaming_message')).toBeUndefined();
    expect(topResult(h.store)?.content).toBe('Error: prompt "summarize" failed: model lost');
  });

  it('THR-3: a thread restarted while a nested step streamed abandons that text, then resumes the run', async () => {
    const hanging = new StreamingFailure('text before the restart');
    const first = createHarness({
      definitions: app({ main: caller('x'), sub: steps({ text: 'unused' }) }),
      agent: 'main',
      provider: (model) => (model.name === 'sub_model' ? hanging : new ScriptedProvider(main.script ?? [], model.name)),
    });
    first.user('go');
    const running = first.run();
    await hanging.streaming.promise;
    const streamed = first.frames.find((frame) => frame.type === 'message_delta');
    const streamedId = streamed?.type === 'message_delta' ? streamed.message_id : '';
    expect(streamedId).not.toBe('');

    // The thread is evicted mid-stream; a new object resumes from the same storage.
    const restarted = createHarness({
      definitions: app({ main: caller('x'), sub: steps({ text: 'after the restart' }) }),
      agent: 'main',
      store: first.store,
    });
    expect(await restarted.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(restarted.frames.filter((frame) => frame.type === 'message_abandoned')).toEqual([
      { type: 'message_abandoned', message_id: streamedId },
    ]);
    expect(restarted.frames.findIndex((frame) => frame.type === 'message_abandoned')).toBeLessThan(
      restarted.frames.findIndex((frame) => frame.type === 'message_delta'),
    );
    expect(topResult(restarted.store)?.content).toBe('after the restart');

    first.controller.abort();
    await running;
  });
});
