/**
 * Prompt tools (SUB-1): a prompt offered as a tool runs nested in the calling thread, its messages
 * one level deeper, shaped by its SubpromptConfig.
 */
import {
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type ModelMessage,
  type ScriptedReply,
  type ScriptedRequest,
  type SubpromptConfig,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppDefinitions } from '../../../../src/engine/registry/index.js';
import { MAX_PROMPT_DEPTH } from '../../../../src/engine/subagents/subprompt.js';
import { ALLOW_EVERYTHING, createHarness, MemoryThreadStore } from '../../../support/memory-store.js';

const add = defineTool({
  description: 'Add two numbers',
  args: z.object({ a: z.number(), b: z.number() }),
  execute: async (_state, { a, b }) => ({ status: 'success', result: String(a + b) }),
});
const explode = defineTool({
  description: 'Fail',
  execute: async () => ({ status: 'error', error: 'boom' }),
});

type Script = (request: ScriptedRequest) => ScriptedReply;

const text = (message: ModelMessage | undefined) => (typeof message?.content === 'string' ? message.content : '');

/** The main model calls `tool` with `args` once, then answers with the tool's result. */
function caller(tool: string, args: Record<string, unknown>): Script {
  return (request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: `main got: ${text(last)}` };
    return { toolCalls: [{ name: tool, arguments: args }] };
  };
}

/** The sub model calls add(2, 3) and explode, then answers with what it saw. */
const worker: Script = (request) => {
  const steps = request.messages.filter((m) => m.role === 'assistant').length;
  if (steps === 0) return { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }, { name: 'explode' }] };
  return { text: `sub answer to: ${text(request.messages.find((m) => m.role === 'user'))}` };
};

function app(options: {
  main: Script;
  sub?: Script;
  config?: Partial<SubpromptConfig>;
  subPrompt?: Record<string, unknown>;
}): AppDefinitions {
  return {
    tools: { add, explode },
    models: [
      defineModel({ name: 'main_model', provider: 'scripted', script: options.main }),
      defineModel({ name: 'sub_model', provider: 'scripted', script: options.sub ?? worker }),
    ],
    prompts: [
      definePrompt({
        name: 'main',
        prompt: 'Main.',
        model: 'main_model',
        tools: [options.config ? { name: 'summarize', ...options.config } : 'summarize'],
      }),
      definePrompt({
        name: 'summarize',
        toolDescription: 'Summarize a text',
        prompt: 'Sub.',
        model: 'sub_model',
        tools: ['add', 'explode'],
        exposeAsTool: true,
        includeChat: false,
        ...options.subPrompt,
      }),
    ],
    agents: [defineAgent({ name: 'main', sideA: { prompt: 'main' } })],
    permissions: ALLOW_EVERYTHING,
  };
}

describe('SUB-1: prompt tools', () => {
  it('SUB-1: runs nested one level deeper, kept out of the parent conversation, answering with its text', async () => {
    const h = createHarness({
      definitions: app({ main: caller('summarize', { message: 'the text' }) }),
      agent: 'main',
    });
    expect(await h.send('please summarize')).toEqual({ kind: 'done', reason: 'response' });
    const step = h.store.messages().find((m) => m.role === 'assistant' && m.depth === 0 && m.tool_calls);
    const callId = step?.tool_calls?.[0]?.id;
    const nested = h.store.messages().filter((m) => m.depth === 1);
    expect(nested.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    for (const message of nested) {
      expect(message.parent_id).toBe(step?.id);
      expect(message.metadata?.prompt_call).toBe(callId);
    }
    const result = h.store.messages().find((m) => m.role === 'tool' && m.depth === 0);
    // includeErrors defaults to true: the failed call is reported with the answer.
    expect(JSON.parse(result?.content ?? '')).toEqual({
      response: 'sub answer to: the text',
      errors: [{ name: 'explode', arguments: {}, status: 'error', error: 'Error: boom' }],
    });
    // The parent's next request holds its own messages only.
    const followUp = h.requests.at(-1)?.messages ?? [];
    expect(followUp.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(h.requests.map((r) => r.model)).toEqual(['main_model', 'sub_model', 'sub_model', 'main_model']);
  });

  it('SUB-1: includeToolCalls lists every call with its result; includeTextResponse false drops the answer', async () => {
    const h = createHarness({
      definitions: app({
        main: caller('summarize', { message: 'x' }),
        config: { includeToolCalls: true, includeTextResponse: false },
      }),
      agent: 'main',
    });
    await h.send('go');
    const result = h.store.messages().find((m) => m.role === 'tool' && m.depth === 0);
    expect(JSON.parse(result?.content ?? '')).toEqual({
      tool_calls: [
        { name: 'add', arguments: { a: 2, b: 3 }, status: 'success', result: '5' },
        { name: 'explode', arguments: {}, status: 'error', error: 'Error: boom' },
      ],
    });
  });

  it('SUB-1: includeErrors false leaves failed calls out', async () => {
    const plain = createHarness({
      definitions: app({ main: caller('summarize', { message: 'x' }), config: { includeErrors: false } }),
      agent: 'main',
    });
    await plain.send('go');
    expect(plain.store.messages().find((m) => m.role === 'tool' && m.depth === 0)?.content).toBe('sub answer to: x');
    const listed = createHarness({
      definitions: app({
        main: caller('summarize', { message: 'x' }),
        config: { includeErrors: false, includeToolCalls: true },
      }),
      agent: 'main',
    });
    await listed.send('go');
    const report = JSON.parse(listed.store.messages().find((m) => m.role === 'tool' && m.depth === 0)?.content ?? '');
    expect(report.tool_calls.map((call: { name: string }) => call.name)).toEqual(['add']);
  });

  it('SUB-1: a failing sub-prompt is an error result, detailed only with includeErrors', async () => {
    const failing: Script = () => {
      throw new Error('model down');
    };
    for (const [includeErrors, error] of [
      [true, 'Error: prompt "summarize" failed: model down'],
      [false, 'Error: prompt "summarize" failed'],
    ] as const) {
      const h = createHarness({
        definitions: app({ main: caller('summarize', { message: 'x' }), sub: failing, config: { includeErrors } }),
        agent: 'main',
      });
      await h.send('go');
      expect(h.store.messages().find((m) => m.role === 'tool' && m.depth === 0)).toMatchObject({
        tool_status: 'error',
        content: error,
      });
    }
  });

  it('SUB-1: initUserMessageProperty picks the message from the requiredSchema; initAttachmentsProperty attaches files', async () => {
    const h = createHarness({
      definitions: app({
        main: caller('summarize', { topic: 'cats', style: 'short', files: ['/notes.txt'] }),
        config: { initUserMessageProperty: 'topic', initAttachmentsProperty: 'files' },
        subPrompt: { requiredSchema: z.object({ topic: z.string(), style: z.string() }) },
      }),
      agent: 'main',
    });
    await h.files.write('/notes.txt', 'some notes');
    expect(h.registry.toolsFor('main')[0]?.parameters).toMatchObject({
      properties: { topic: { type: 'string' }, style: { type: 'string' }, files: { type: 'array' } },
    });
    await h.send('go');
    const first = h.store.messages().find((m) => m.depth === 1 && m.role === 'user');
    expect(first?.content).toBe('cats\n\nAttached files:\n- /notes.txt');
    expect(first?.attachments).toEqual([expect.objectContaining({ path: '/notes.txt', size: 10 })]);

    const missing = createHarness({
      definitions: app({
        main: caller('summarize', { message: 'x', files: ['/absent.txt'] }),
        config: { initAttachmentsProperty: 'files' },
      }),
      agent: 'main',
    });
    await missing.send('go');
    expect(missing.store.messages().find((m) => m.role === 'tool' && m.depth === 0)?.content).toBe(
      'Error: cannot attach "/absent.txt": no such file',
    );
  });

  it('SUB-1: with includeChat the sub-prompt also sees the conversation before the call', async () => {
    const h = createHarness({
      definitions: app({ main: caller('summarize', { message: 'x' }), subPrompt: { includeChat: true } }),
      agent: 'main',
    });
    await h.send('the earlier talk');
    const subRequest = h.requests.find((r) => r.model === 'sub_model');
    expect(subRequest?.messages.map((m) => `${m.role}:${text(m)}`)).toEqual([
      'system:Sub.',
      'user:the earlier talk',
      'user:x',
    ]);
  });

  it('THR-3: a thread restarted mid-run resumes the nested run from its messages', async () => {
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
    const inner = { id: 'call_add', type: 'function' as const, function: { name: 'add', arguments: '{"a":2,"b":3}' } };
    store.append({ role: 'assistant', content: null, tool_calls: [inner], ...place });
    store.markToolStarted('call_add');
    store.append({
      role: 'tool',
      content: '5',
      tool_call_id: 'call_add',
      name: 'add',
      tool_status: 'success',
      ...place,
    });
    const h = createHarness({
      definitions: app({ main: caller('summarize', { message: 'x' }) }),
      agent: 'main',
      store,
    });
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    // One sub step (the answer after the stored result) and the parent's final step.
    expect(h.requests.map((r) => r.model)).toEqual(['sub_model', 'main_model']);
    expect(h.store.messages().filter((m) => m.depth === 1 && m.role === 'tool')).toHaveLength(1);
    expect(h.store.messages().find((m) => m.role === 'tool' && m.depth === 0)?.content).toBe('sub answer to: x');
  });

  it(`SUB-1: prompt tools nest at most ${MAX_PROMPT_DEPTH} levels`, async () => {
    const recursive: Script = (request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') return { text: `up: ${text(last)}` };
      return { toolCalls: [{ name: 'recurse', arguments: { message: 'deeper' } }] };
    };
    const h = createHarness({
      definitions: {
        models: [defineModel({ name: 'm', provider: 'scripted', script: recursive })],
        prompts: [definePrompt({ name: 'recurse', prompt: '', model: 'm', tools: ['recurse'], exposeAsTool: true })],
        agents: [defineAgent({ name: 'main', sideA: { prompt: 'recurse' } })],
        permissions: ALLOW_EVERYTHING,
      },
      agent: 'main',
    });
    await h.send('go');
    const depths = h.store.messages().map((m) => m.depth);
    expect(Math.max(...depths)).toBe(MAX_PROMPT_DEPTH);
    expect(h.store.messages().find((m) => m.role === 'tool' && m.depth === MAX_PROMPT_DEPTH)?.content).toBe(
      `Error: prompt tools nest at most ${MAX_PROMPT_DEPTH} levels deep`,
    );
    expect(h.store.messages().at(-1)?.content).toMatch(/^up: up: up: up: .*prompt tools nest at most 4 levels deep/);
  });

  it('SUB-1: a prompt listed by name must be exposeAsTool; a config must name a prompt', () => {
    const base = app({ main: caller('summarize', {}) });
    const prompts = (base.prompts as ReturnType<typeof definePrompt>[]).map((p) =>
      p.name === 'summarize' ? { ...p, exposeAsTool: false } : p,
    );
    expect(() => createHarness({ definitions: { ...base, prompts }, agent: 'main' })).toThrow(
      'lists prompt "summarize", which is not exposeAsTool',
    );
    expect(() =>
      createHarness({
        definitions: {
          ...base,
          prompts: [
            ...prompts.filter((p) => p.name !== 'main'),
            definePrompt({
              name: 'main',
              prompt: '',
              model: 'main_model',
              tools: [{ name: 'nothing', includeErrors: true }],
            }),
          ],
        },
        agent: 'main',
      }),
    ).toThrow('lists unknown tool "nothing"');
  });
});
