/**
 * Immediate subagents (SUB-3) and the lifecycle tools of resumable ones (SUB-4), in the engine:
 * what the runtime injects, when it offers it, and the arguments it derives.
 */
import { defineAgent, defineModel, definePrompt, defineTool, type ScriptedRequest } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { SUBAGENT_INSTANCES_KEY } from '../../../../src/engine/subagents/subagent-instances.js';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';

const show = defineTool({
  description: 'Show nothing',
  execute: async () => ({ status: 'success', result: 'shown' }),
});

function lead(tools: Parameters<typeof definePrompt>[0]['tools'], script: (request: ScriptedRequest) => object) {
  return createHarness({
    definitions: {
      tools: { show },
      models: [defineModel({ name: 'm', provider: 'scripted', script: script as never })],
      prompts: [
        definePrompt({ name: 'lead', prompt: '', model: 'm', tools }),
        definePrompt({ name: 'inner', prompt: '', model: 'm', tools: ['show'] }),
      ],
      agents: [
        defineAgent({ name: 'lead', sideA: { prompt: 'lead' } }),
        defineAgent({ name: 'worker', sideA: { prompt: 'inner' } }),
        defineAgent({ name: 'writer', sideA: { prompt: 'inner' } }),
      ],
      permissions: ALLOW_EVERYTHING,
    },
    agent: 'lead',
    variables: { values: { PROJECT: 'apollo', BRIEF: 'plan the launch', KEY: 'k-123' } },
  });
}

describe('SUB-4: lifecycle tools', () => {
  it('SUB-4: only a prompt with resumable subagents gets them, and subagent_message only once an instance exists', async () => {
    const h = lead(
      [
        'show',
        { name: 'worker', resumable: { receives_messages: 'side_a' } },
        { name: 'writer', resumable: { receives_messages: 'side_b' } },
      ],
      () => ({ text: 'ok' }),
    );
    expect(h.registry.toolsFor('lead').map((tool) => tool.name)).toEqual([
      'show',
      'subagent_create',
      'subagent_message',
    ]);
    expect(h.registry.toolsFor('inner').map((tool) => tool.name)).toEqual(['show']);
    expect(h.registry.toolsFor('lead')[1]?.parameters).toMatchObject({
      properties: { agent: { enum: ['worker', 'writer'] }, name: { type: 'string', minLength: 1 } },
      required: ['agent', 'name', 'message'],
    });
    await h.send('first');
    expect(h.requests[0]?.tools.map((tool) => tool.function.name)).toEqual(['show', 'subagent_create']);
    h.store.setValue(SUBAGENT_INSTANCES_KEY, { w1: { id: 'child-1', agent: 'worker', receives: 'a' } });
    await h.send('second');
    expect(h.requests[1]?.tools.map((tool) => tool.function.name)).toEqual([
      'show',
      'subagent_create',
      'subagent_message',
    ]);
  });

  it('SUB-4: subagent_create passes the instance, its side and limit; an empty name is refused', async () => {
    const h = lead([{ name: 'writer', resumable: { receives_messages: 'side_b', maxInstances: 3 } }], (request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { text: 'done' }
        : {
            toolCalls: [
              { name: 'subagent_create', arguments: { agent: 'writer', name: '  ', message: 'x' } },
              { name: 'subagent_create', arguments: { agent: 'writer', name: 'w', message: 'draft' } },
            ],
          },
    );
    await h.send('go');
    const [empty, created] = h.byRole('tool');
    expect(empty?.content).toContain('name');
    expect(empty?.tool_status).toBe('error');
    expect(created?.tool_status).toBe('success');
    expect(h.spawned).toEqual([
      expect.objectContaining({
        agent: 'writer',
        message: 'draft',
        tags: ['name:w'],
        notify: true,
        instance: { name: 'w', receives: 'b', maxInstances: 3 },
      }),
    ]);
  });
});

describe('SUB-3: immediate subagents', () => {
  it('SUB-3, SUB-5: start once, before the first model step, with nameEnv and descriptionEnv as arguments and scopedEnv as variables', async () => {
    const h = lead(
      [
        {
          name: 'worker',
          initAgentNameProperty: 'label',
          blocking: false,
          immediate: { nameEnv: 'PROJECT', descriptionEnv: 'BRIEF', scopedEnv: ['KEY'] },
        },
      ],
      () => ({ text: 'answered' }),
    );
    await h.send('hello');
    const [step, result, answer] = h.store.messages().slice(1);
    expect(step).toMatchObject({ role: 'assistant', metadata: { immediate: true } });
    expect(JSON.parse(step?.tool_calls?.[0]?.function.arguments ?? '')).toEqual({
      message: 'plan the launch',
      label: 'apollo',
    });
    expect(result).toMatchObject({ role: 'tool', name: 'worker', tool_status: 'success' });
    expect(answer).toMatchObject({ role: 'assistant', content: 'answered' });
    expect(h.spawned).toEqual([
      expect.objectContaining({
        agent: 'worker',
        message: 'plan the launch',
        tags: ['name:apollo'],
        variables: { KEY: 'k-123' },
      }),
    ]);
    // The model saw the arguments, never the scoped value.
    expect(JSON.stringify(h.requests)).not.toContain('k-123');
    await h.send('again');
    expect(h.spawned).toHaveLength(1);
    expect(h.store.messages().filter((m) => m.metadata?.immediate)).toHaveLength(1);
  });

  it('SUB-3: immediate: true starts the subagent on the user message that activated the prompt', async () => {
    const h = lead([{ name: 'worker', blocking: false, immediate: true }], () => ({ text: 'answered' }));
    await h.send('the task');
    expect(h.spawned).toEqual([expect.objectContaining({ agent: 'worker', message: 'the task', variables: {} })]);
  });
});
