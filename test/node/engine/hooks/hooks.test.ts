/**
 * Hooks in the engine (HOOK-1 to HOOK-10): definitions checked, resolution by prompt then agent, the
 * runner's order and chaining, a hook that throws, runs too long or returns the wrong type skipped
 * and reported, `state.injectMessage` refused by its hook, tool-call hooks that recover or drop a
 * call, and a hook's state held to the thread's rules. Over the memory store with a scripted model.
 */
import {
  type AnyHookDefinition,
  DefinitionError,
  defineAgent,
  defineHook,
  defineModel,
  definePrompt,
  defineTool,
  type Message,
  type PermissionRule,
  type Script,
  type ToolResult,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AppDefinitions, Registry } from '../../../../src/engine/registry/index.js';
import { HOSTILE_HISTORY_RETURNS, HOSTILE_TOOL_RESULT_RETURNS } from '../../../support/hostile-corpus.js';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';

const echo = defineTool({
  description: 'Echo the text back',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: `echo: ${args.text}` }),
});

const broken = defineTool({
  description: 'Always fails',
  execute: async () => ({ status: 'error', error: 'the service is down' }),
});

const inject = defineTool({
  description: 'Injects a note into the thread',
  execute: async (state) => {
    await state.injectMessage({ role: 'user', content: 'a note' });
    return { status: 'success', result: 'injected' };
  },
});

function app(options: {
  hooks: AnyHookDefinition[];
  promptHooks?: string[];
  agentHooks?: string[];
  script?: Script;
  permissions?: PermissionRule[];
  hookTimeoutMs?: number;
}): AppDefinitions {
  return {
    tools: { echo, broken, inject },
    models: [defineModel({ name: 'scripted', provider: 'scripted', script: options.script ?? [{ text: 'done' }] })],
    prompts: [
      definePrompt({
        name: 'main',
        prompt: 'You are a test agent.',
        model: 'scripted',
        tools: ['echo', 'broken', 'inject'],
        ...(options.promptHooks ? { hooks: options.promptHooks } : {}),
      }),
    ],
    agents: [
      defineAgent({
        name: 'test_agent',
        sideA: { prompt: 'main' },
        ...(options.agentHooks ? { hooks: options.agentHooks } : {}),
      }),
    ],
    permissions: options.permissions ?? ALLOW_EVERYTHING,
    hooks: options.hooks,
    ...(options.hookTimeoutMs ? { hookTimeoutMs: options.hookTimeoutMs } : {}),
  };
}

const hookFailures = (frames: readonly { type: string }[]) =>
  frames
    .filter((frame) => frame.type === 'event' && (frame as unknown as { event: string }).event === 'hook_failed')
    .map((frame) => (frame as unknown as { data: { hook: string; point: string; error: string } }).data);

const texts = (messages: readonly { role: string; content: unknown }[]) =>
  messages.map((message) => `${message.role}:${typeof message.content === 'string' ? message.content : ''}`);

describe('HOOK-1: defineHook', () => {
  it('HOOK-1: a hook names one of the twelve points, a snake_case id and an execute function', () => {
    const hook = defineHook({ hook: 'filter_messages', id: 'keep_all', execute: async (_state, messages) => messages });
    expect(hook.hook).toBe('filter_messages');
    expect(() =>
      defineHook({ hook: 'before_everything' as 'filter_messages', id: 'x', execute: async () => [] }),
    ).toThrow(DefinitionError);
    expect(() => defineHook({ hook: 'filter_messages', id: 'Trim-History', execute: async () => [] })).toThrow(
      /snake_case/,
    );
    expect(() =>
      defineHook({ hook: 'filter_messages', id: 'no_body', execute: 'nope' as unknown as () => Message[] }),
    ).toThrow(/execute must be a function/);
  });

  it('HOOK-3: an id used twice, or a prompt or agent naming an unknown hook, fails at startup naming it', () => {
    const keep = defineHook({ hook: 'filter_messages', id: 'keep_all', execute: async (_s, m) => m });
    expect(() => new Registry(app({ hooks: [keep, keep] }))).toThrow(/duplicate hook id "keep_all"/);
    expect(() => new Registry(app({ hooks: [keep], promptHooks: ['trim_history'] }))).toThrow(
      /prompt "main" names unknown hook "trim_history"/,
    );
    expect(() => new Registry(app({ hooks: [keep], agentHooks: ['nothing_here'] }))).toThrow(
      /agent "test_agent" names unknown hook "nothing_here"/,
    );
    expect(() => new Registry({ ...app({ hooks: [keep] }), hookTimeoutMs: 0 })).toThrow(/hookTimeoutMs/);
  });
});

describe('HOOK-2: which hooks run', () => {
  const tag = (id: string) =>
    defineHook({ hook: 'after_system_message', id, execute: async (_state, text) => `${text} [${id}]` });

  it("HOOK-2: the prompt's hooks run when it names any, else the agent's; a hook nobody names never runs", async () => {
    const hooks = [tag('from_prompt'), tag('from_agent'), tag('unnamed')];
    const both = createHarness({
      definitions: app({ hooks, promptHooks: ['from_prompt'], agentHooks: ['from_agent'] }),
    });
    await both.send('hi');
    expect(both.requests[0]?.messages[0]?.content).toBe('You are a test agent. [from_prompt]');
    const agentOnly = createHarness({ definitions: app({ hooks, agentHooks: ['from_agent'] }) });
    await agentOnly.send('hi');
    expect(agentOnly.requests[0]?.messages[0]?.content).toBe('You are a test agent. [from_agent]');
    const none = createHarness({ definitions: app({ hooks }) });
    await none.send('hi');
    expect(none.requests[0]?.messages[0]?.content).toBe('You are a test agent.');
  });
});

describe('HOOK-6: order and chaining', () => {
  it('HOOK-6: hooks of one point run in the order the list names them, each given the previous output', async () => {
    const calls: string[] = [];
    const first = defineHook({
      hook: 'filter_messages',
      id: 'drop_first',
      execute: async (_state, messages) => {
        calls.push(`drop_first:${messages.length}`);
        return messages.slice(1);
      },
    });
    const second = defineHook({
      hook: 'filter_messages',
      id: 'count',
      execute: async (_state, messages) => {
        calls.push(`count:${messages.length}`);
      },
    });
    const h = createHarness({ definitions: app({ hooks: [second, first], promptHooks: ['drop_first', 'count'] }) });
    h.user('old one');
    h.store.append({ role: 'assistant', content: 'old answer' });
    await h.send('new one');
    expect(calls).toEqual(['drop_first:3', 'count:2']);
    expect(texts(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'assistant:old answer',
      'user:new one',
    ]);
    // HOOK-8: the request only; the stored log keeps every message.
    expect(h.store.messages().map((m) => m.content)).toEqual(['old one', 'old answer', 'new one', 'done']);
  });
});

describe('HOOK-7: a failing hook is skipped and reported', () => {
  it('HOOK-7: a hook that throws is skipped, the next one gets the value it was given, the failure is scrubbed', async () => {
    const throws = defineHook({
      hook: 'after_system_message',
      id: 'leaky',
      execute: async () => {
        throw new Error('could not reach https://api.example.test?key=sk-live-CANARY-0123456789');
      },
    });
    const tags = defineHook({ hook: 'after_system_message', id: 'tags', execute: async (_s, text) => `${text}!` });
    const h = createHarness({
      definitions: app({ hooks: [throws, tags], promptHooks: ['leaky', 'tags'] }),
      scrub: (text) => text.replaceAll('sk-live-CANARY-0123456789', '[secret]'),
    });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests[0]?.messages[0]?.content).toBe('You are a test agent.!');
    const [failure] = hookFailures(h.frames);
    expect(failure).toMatchObject({ hook: 'leaky', point: 'after_system_message' });
    expect(failure?.error).toContain('[secret]');
    expect(JSON.stringify(h.frames)).not.toContain('CANARY');
  });

  it('HOOK-5: a hook past its time limit is skipped and the turn goes on', async () => {
    const hangs = defineHook({
      hook: 'filter_messages',
      id: 'hangs',
      execute: () => new Promise<Message[]>(() => {}),
    });
    const h = createHarness({ definitions: app({ hooks: [hangs], promptHooks: ['hangs'], hookTimeoutMs: 20 }) });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(texts(h.requests[0]?.messages ?? [])).toEqual(['system:You are a test agent.', 'user:hi']);
    expect(hookFailures(h.frames)[0]).toMatchObject({ hook: 'hangs', point: 'filter_messages' });
    expect(hookFailures(h.frames)[0]?.error).toContain('20 ms');
  });

  it('HOOK-7: a return of the wrong type is treated as a failure and never used', async () => {
    const wrong = defineHook({
      hook: 'filter_messages',
      id: 'wrong_type',
      execute: async () => 'not a list' as unknown as Message[],
    });
    const h = createHarness({ definitions: app({ hooks: [wrong], promptHooks: ['wrong_type'] }) });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(texts(h.requests[0]?.messages ?? [])).toEqual(['system:You are a test agent.', 'user:hi']);
    expect(hookFailures(h.frames)[0]?.error).toMatch(/wrong_type.*filter_messages.*list of messages/);
  });
});

describe('HOOK-8: stored messages', () => {
  it('HOOK-8: before_create_message changes what is stored; after_create_message sees it stored', async () => {
    const seen: string[] = [];
    const stamp = defineHook({
      hook: 'before_create_message',
      id: 'stamp',
      execute: async (_state, message) => ({ metadata: { ...(message.metadata ?? {}), stamped: true } }),
    });
    const watch = defineHook({
      hook: 'after_create_message',
      id: 'watch',
      execute: async (_state, message) => {
        seen.push(`${message.role}:${message.seq > 0}`);
      },
    });
    const h = createHarness({
      definitions: app({
        hooks: [stamp, watch],
        promptHooks: ['stamp', 'watch'],
        script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
      }),
    });
    await h.send('hi');
    const stored = h.store.messages().filter((m) => m.role !== 'user');
    expect(stored.map((m) => [m.role, m.metadata?.stamped])).toEqual([
      ['assistant', true],
      ['tool', true],
      ['assistant', true],
    ]);
    expect(seen).toEqual(['assistant:true', 'tool:true', 'assistant:true']);
  });

  it('HOOK-8: a before_create_message failure on state.injectMessage rejects the caller, nothing stored', async () => {
    const refuse = defineHook({
      hook: 'before_create_message',
      id: 'refuse_notes',
      execute: async (_state, message) => {
        if (message.content === 'a note') throw new Error('notes are not allowed');
      },
    });
    const h = createHarness({
      definitions: app({
        hooks: [refuse],
        promptHooks: ['refuse_notes'],
        script: [{ toolCalls: [{ name: 'inject', arguments: {} }] }, { text: 'done' }],
      }),
    });
    await h.send('hi');
    expect(h.store.messages().some((m) => m.content === 'a note')).toBe(false);
    const result = h.byRole('tool')[0];
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('refuse_notes');
    expect(h.byRole('assistant').at(-1)?.content).toBe('done');
  });
});

describe('HOOK-9: tool-call hooks', () => {
  it('HOOK-9: after_tool_call_failure recovers a failed call with a success result', async () => {
    const recover = defineHook({
      hook: 'after_tool_call_failure',
      id: 'recover',
      execute: async (_state, call, result) => ({
        status: 'success',
        result: `recovered ${call.function.name}: ${result.error}`,
      }),
    });
    const h = createHarness({
      definitions: app({
        hooks: [recover],
        promptHooks: ['recover'],
        script: [{ toolCalls: [{ name: 'broken', arguments: {} }] }, { text: 'done' }],
      }),
    });
    await h.send('hi');
    const result = h.byRole('tool')[0];
    expect(result?.tool_status).toBe('success');
    expect(result?.content).toBe('recovered broken: the service is down');
  });

  it('HOOK-9: after_tool_call_success returning null drops the call: nothing stored, never sent again', async () => {
    let steps = 0;
    const drop = defineHook({
      hook: 'after_tool_call_success',
      id: 'drop_echo',
      execute: async (_state, call, result) => (call.function.name === 'echo' ? null : result),
    });
    const h = createHarness({
      definitions: app({
        hooks: [drop],
        promptHooks: ['drop_echo'],
        // The model is never told of the dropped call, so only the model's own memory says it made one.
        script: () =>
          ++steps === 1 ? { toolCalls: [{ name: 'echo', arguments: { text: 'secret-ish' } }] } : { text: 'done' },
      }),
    });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    // The loop goes on after a dropped call: the model answers.
    expect(h.byRole('assistant').at(-1)?.content).toBe('done');
    expect(h.store.messages().some((m) => m.content?.includes('echo: secret-ish'))).toBe(false);
    await h.send('again');
    for (const request of h.requests.slice(1)) {
      expect(JSON.stringify(request.messages)).not.toContain('secret-ish');
      expect(request.messages.some((m) => m.role === 'tool')).toBe(false);
    }
  });

  it('HOOK-9: before_store_tool_result changes the result that is stored', async () => {
    const redact = defineHook({
      hook: 'before_store_tool_result',
      id: 'redact',
      execute: async (_state, _call, result) => ({ ...result, result: String(result.result).replace(/\d+/g, '#') }),
    });
    const h = createHarness({
      definitions: app({
        hooks: [redact],
        promptHooks: ['redact'],
        script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'card 4111' } }] }, { text: 'done' }],
      }),
    });
    await h.send('hi');
    expect(h.byRole('tool')[0]?.content).toBe('echo: card #');
  });
});

describe('HOOK-10: a hook is contained', () => {
  it("HOOK-10: a hook's file write that a deny rule covers is refused inside the hook; the turn goes on", async () => {
    const outcomes: string[] = [];
    const writer = defineHook({
      hook: 'after_thread_created',
      id: 'writer',
      execute: async (state) => {
        expect(state.execution).toBeNull();
        await state.writeFile('/notes/ok.txt', 'fine');
        outcomes.push('ok written');
        await state.writeFile('/private/x.txt', 'nope').catch((error: Error) => outcomes.push(error.message));
      },
    });
    const h = createHarness({
      definitions: app({
        hooks: [writer],
        agentHooks: ['writer'],
        permissions: [...ALLOW_EVERYTHING, { action: 'deny', permission: 'fs.write', pattern: '/private/**' }],
      }),
    });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(outcomes[0]).toBe('ok written');
    expect(outcomes[1]).toMatch(/Denied/);
    expect(await h.files.read('/private/x.txt')).toBeNull();
    // HOOK-4: once in the thread's life.
    await h.send('again');
    expect(outcomes.filter((o) => o === 'ok written')).toHaveLength(1);
  });
});

describe('HOOK-7: hostile returns', () => {
  it('HOOK-7: each malformed history return is skipped: the model gets the real history, nothing stored', async () => {
    for (const returned of HOSTILE_HISTORY_RETURNS) {
      const hostile = defineHook({
        hook: 'filter_messages',
        id: 'hostile',
        execute: async () => returned as Message[],
      });
      const h = createHarness({ definitions: app({ hooks: [hostile], promptHooks: ['hostile'] }) });
      expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
      expect(texts(h.requests[0]?.messages ?? [])).toEqual(['system:You are a test agent.', 'user:hi']);
      expect(hookFailures(h.frames)).toHaveLength(1);
      expect(h.store.messages().map((m) => m.content)).toEqual(['hi', 'done']);
    }
  });

  it('HOOK-7: each malformed tool result return is skipped: the real result is stored', async () => {
    for (const returned of HOSTILE_TOOL_RESULT_RETURNS) {
      const hostile = defineHook({
        hook: 'after_tool_call_success',
        id: 'hostile',
        execute: async () => returned as ToolResult,
      });
      const h = createHarness({
        definitions: app({
          hooks: [hostile],
          promptHooks: ['hostile'],
          script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }],
        }),
      });
      await h.send('hi');
      expect(h.byRole('tool')[0]).toMatchObject({ tool_status: 'success', content: 'echo: x' });
      expect(hookFailures(h.frames)).toHaveLength(1);
    }
  });
});

describe('HOOK-11: after_subagent_created', () => {
  it('HOOK-11: a child thread a tool starts runs the hook on the parent, once the child exists', async () => {
    const seen: string[] = [];
    const starter = defineTool({
      description: 'Start a helper thread',
      execute: async (state) => {
        const child = await state.spawnChild({ agent: 'test_agent', message: 'help' });
        return { status: 'success', result: child.id };
      },
    });
    const track = defineHook({
      hook: 'after_subagent_created',
      id: 'track_children',
      execute: async (state, child) => {
        seen.push(`${state.threadId}->${child.threadId}:${state.execution === null ? 'rest' : 'turn'}`);
      },
    });
    const definitions = app({
      hooks: [track],
      promptHooks: ['track_children'],
      script: [{ toolCalls: [{ name: 'starter', arguments: {} }] }, { text: 'done' }],
    });
    const prompt = definePrompt({
      name: 'main',
      prompt: 'You are a test agent.',
      model: 'scripted',
      tools: ['starter'],
      hooks: ['track_children'],
    });
    const h = createHarness({ definitions: { ...definitions, tools: { starter }, prompts: [prompt] } });
    await h.send('hi');
    expect(h.spawned).toHaveLength(1);
    expect(seen).toEqual([`${h.store.info.id}->${h.spawned[0]?.id}:turn`]);
  });
});

describe('HOOK-12: update hooks', () => {
  it('HOOK-12: state.updateMessage runs before_update_message (its updates applied) and after_update_message', async () => {
    const seen: string[] = [];
    const editor = defineTool({
      description: 'Rewrite the first message',
      execute: async (state) => {
        const [first] = (await state.getMessages({ limit: 1 })).messages;
        const updated = await state.updateMessage(first?.id ?? '', { content: 'rewritten by a tool' });
        return { status: 'success', result: updated.content ?? '' };
      },
    });
    const stamp = defineHook({
      hook: 'before_update_message',
      id: 'stamp_updates',
      execute: async (_state, _id, updates) => ({ ...updates, metadata: { edited: true } }),
    });
    const watch = defineHook({
      hook: 'after_update_message',
      id: 'watch_updates',
      execute: async (_state, message) => {
        seen.push(`${message.content}:${message.metadata?.edited}`);
      },
    });
    const refuseRole = defineHook({
      hook: 'before_update_message',
      id: 'change_role',
      execute: async () => ({ role: 'system' }) as never,
    });
    const prompt = definePrompt({
      name: 'main',
      prompt: 'You are a test agent.',
      model: 'scripted',
      tools: ['editor'],
      hooks: ['stamp_updates', 'change_role', 'watch_updates'],
    });
    const definitions = app({
      hooks: [stamp, watch, refuseRole],
    });
    const replies = [{ text: 'first' }, { toolCalls: [{ name: 'editor', arguments: {} }] }, { text: 'done' }];
    let step = 0;
    const model = defineModel({
      name: 'scripted',
      provider: 'scripted',
      script: () => replies[step++] ?? { text: 'end' },
    });
    const h = createHarness({ definitions: { ...definitions, models: [model], tools: { editor }, prompts: [prompt] } });
    await h.send('original');
    await h.send('edit it');
    const first = h.store.messages()[0];
    expect(first).toMatchObject({ content: 'rewritten by a tool', metadata: { edited: true }, role: 'user' });
    expect(seen).toEqual(['rewritten by a tool:true']);
    expect(hookFailures(h.frames).map((failure) => failure.hook)).toEqual(['change_role']);
  });
});

describe('HOOK-8: prefilter_llm_history', () => {
  it('HOOK-8: prefilter_llm_history gets the provider-shaped request last, and what it returns is sent', async () => {
    const seen: string[] = [];
    const note = defineHook({
      hook: 'prefilter_llm_history',
      id: 'add_note',
      execute: async (_state, messages) => {
        seen.push(messages.map((message) => message.role).join(','));
        return [...messages, { role: 'user', content: 'Answer briefly.' }];
      },
    });
    const h = createHarness({ definitions: app({ hooks: [note], promptHooks: ['add_note'] }) });
    await h.send('hi');
    expect(seen).toEqual(['system,user']);
    expect(texts(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:hi',
      'user:Answer briefly.',
    ]);
    expect(h.store.messages().map((m) => m.content)).toEqual(['hi', 'done']);
  });
});

describe('HOOK-10: a hook reaches the network through the egress policy', () => {
  it("HOOK-10: a hook's state.fetch and global fetch of a cloud metadata address are refused inside the hook", async () => {
    const outcomes: string[] = [];
    const reach = defineHook({
      hook: 'after_thread_created',
      id: 'reach_metadata',
      execute: async (state) => {
        for (const attempt of [
          () => state.fetch('http://169.254.169.254/latest/meta-data/'),
          () => fetch('http://169.254.169.254/latest/meta-data/'),
        ]) {
          outcomes.push(
            await attempt().then(
              () => 'reached',
              (error: Error) => error.name,
            ),
          );
        }
      },
    });
    const h = createHarness({ definitions: app({ hooks: [reach], agentHooks: ['reach_metadata'] }) });
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(outcomes).toEqual(['EgressRefused', 'EgressRefused']);
  });
});

describe('HOOK-8: messages a filter_messages hook makes', () => {
  it('HOOK-8: a message the hook made itself is sent with the history, and never stored', async () => {
    const summarise = defineHook({
      hook: 'filter_messages',
      id: 'summarise',
      execute: async (_state, messages) => [
        { role: 'user', content: 'Summary: the user asked about tea.' } as Message,
        ...messages.slice(-1),
      ],
    });
    const h = createHarness({ definitions: app({ hooks: [summarise], promptHooks: ['summarise'] }) });
    h.user('old question');
    h.store.append({ role: 'assistant', content: 'old answer' });
    await h.send('new question');
    expect(texts(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:Summary: the user asked about tea.',
      'user:new question',
    ]);
    expect(h.store.messages().map((m) => m.content)).toEqual(['old question', 'old answer', 'new question', 'done']);
  });
});
