import { DefinitionError, defineAgent, defineModel, definePrompt } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { Registry } from '../../../src/engine/registry/registry.js';
import { agentTool } from '../../../src/tools/subagents/agent-tool.js';

const model = defineModel({ name: 'm', provider: 'scripted' });
const helper = (exposeAsTool: boolean) => defineAgent({ name: 'helper', exposeAsTool, sideA: { prompt: 'inner' } });
const inner = definePrompt({ name: 'inner', prompt: '', model: 'm' });

function registry(tools: Parameters<typeof definePrompt>[0]['tools'], exposeAsTool = true) {
  return new Registry(
    {
      models: [model],
      prompts: [inner, definePrompt({ name: 'outer', prompt: '', model: 'm', tools })],
      agents: [helper(exposeAsTool), defineAgent({ name: 'main', sideA: { prompt: 'outer' } })],
    },
    {},
    agentTool,
  );
}

describe('SubagentToolConfig', () => {
  it('SUB-3: init properties become the tool arguments the model fills in', () => {
    const [tool] = registry([
      {
        name: 'helper',
        initUserMessageProperty: 'task',
        initAttachmentsProperty: 'files',
        initAgentNameProperty: 'label',
      },
    ]).toolsFor('outer');
    expect(tool?.parameters).toMatchObject({
      type: 'object',
      properties: { task: { type: 'string' }, files: { type: 'array', default: [] }, label: { type: 'string' } },
      required: ['task', 'label'],
    });
  });

  it('SUB-2: an ai_human agent listed by name alone is a handoff, and only when it is exposeAsTool', () => {
    const [tool] = registry(['helper']).toolsFor('outer');
    expect(tool?.definition.acpKind).toBe('switch_mode');
    expect(tool?.parameters).toMatchObject({ properties: { note: { type: 'string', default: '' } } });
    expect(() => registry(['helper'], false)).toThrow('which is not exposeAsTool');
  });

  it('SUB-3: optional names the flag that offers the tool', () => {
    expect(registry([{ name: 'helper', optional: 'HELPERS' }]).toolsFor('outer')[0]?.enabledBy).toBe('HELPERS');
  });

  it('SUB-3, SUB-4: malformed immediate or resumable options, and clashing or invalid property names, fail at definition', () => {
    const define = (config: Record<string, unknown>) => () =>
      definePrompt({ name: 'p', prompt: '', model: 'm', tools: [{ name: 'helper', ...config }] });
    expect(define({ immediate: true })).not.toThrow();
    expect(define({ immediate: { scopedEnv: ['not a name'] } })).toThrow('which is not a variable name');
    expect(define({ resumable: { receives_messages: 'side_c' } })).toThrow('receives_messages must be');
    expect(define({ resumable: { receives_messages: 'side_a', maxInstances: 0 } })).toThrow(
      'maxInstances must be a positive integer',
    );
    expect(define({ resumable: { receives_messages: 'side_a', parentCommunication: 'loud' } })).toThrow(
      'parentCommunication must be',
    );
    expect(define({ immediate: true, resumable: { receives_messages: 'side_a' } })).toThrow(
      'either immediate or resumable',
    );
    expect(define({ blocking: false, includeToolCalls: true })).toThrow('mixes prompt tool options');
    expect(define({ initUserMessageProperty: 'a', initAgentNameProperty: 'a' })).toThrow(DefinitionError);
    expect(define({ initAttachmentsProperty: 'not valid' })).toThrow('is not a valid argument name');
  });

  it('WAIT-1: waitTimeout is a whole number of milliseconds up to the ten-minute tool ceiling', () => {
    const define = (waitTimeout: unknown) => () =>
      definePrompt({ name: 'p', prompt: '', model: 'm', tools: [{ name: 'helper', waitTimeout } as never] });
    expect(define(1)).not.toThrow();
    expect(define(600_000)).not.toThrow();
    for (const forged of [600_001, 0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, '1000']) {
      expect(define(forged), String(forged)).toThrow('waitTimeout must be a whole number of milliseconds');
    }
  });
});
