/**
 * VAR-1 / VAR-2: variable declarations (the `variables` list and the older `tenvs` Zod object), their
 * merge, the check for missing required values, and `state.env()` / `state.tenvs` inside a tool.
 */
import { defineAgent, defineModel, definePrompt, defineTool, type VariableDefinition } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Registry } from '../../../src/engine/registry/registry.js';
import { mergeVariableDefinitions, missingVariables, variablesFromTenvs } from '../../../src/spec/variables.js';
import { createHarness } from '../../support/memory-store.js';

const ok = async () => ({ status: 'success' as const, result: 'ok' });

function variable(name: string, overrides: Partial<VariableDefinition> = {}): VariableDefinition {
  return { name, type: 'text', required: false, description: '', ...overrides };
}

describe('VAR-1: declarations', () => {
  it('VAR-1: a tenvs z.object maps onto variables; optional and defaulted fields are not required', () => {
    expect(
      variablesFromTenvs(
        z.object({
          API_URL: z.string().describe('Base URL of the API'),
          REGION: z.string().optional(),
          LIMIT: z.string().default('10'),
        }),
      ),
    ).toEqual([
      { name: 'API_URL', type: 'text', required: true, description: 'Base URL of the API' },
      { name: 'REGION', type: 'text', required: false, description: '' },
      { name: 'LIMIT', type: 'text', required: false, description: '', default: '10' },
    ]);
    expect(variablesFromTenvs(undefined)).toEqual([]);
  });

  it('VAR-1: defineTool, definePrompt and defineAgent accept both forms and combine them', () => {
    const tenvs = z.object({ TOKEN: z.string(), DEBUG: z.string().optional() });
    const listed = [variable('SECRET_KEY', { type: 'secret', required: true })];
    const tool = defineTool({ description: 'X.', execute: ok, tenvs, variables: listed });
    const prompt = definePrompt({ name: 'p', prompt: '', model: 'm', tenvs, variables: listed });
    const agent = defineAgent({ name: 'a', sideA: { prompt: 'p' }, tenvs, variables: listed });
    for (const declared of [tool.variables, prompt.variables, agent.variables]) {
      expect(declared.map((v) => [v.name, v.type, v.required])).toEqual([
        ['SECRET_KEY', 'secret', true],
        ['TOKEN', 'text', true],
        ['DEBUG', 'text', false],
      ]);
    }
    expect(tool.tenvs).toBe(tenvs);
  });
});

describe('VAR-2: merging and missing values', () => {
  it('VAR-2: mergeVariableDefinitions: later declarations win, required anywhere stays required, secret stays secret', () => {
    const merged = mergeVariableDefinitions(
      [variable('A', { description: 'from tool', required: true }), variable('B', { type: 'secret' })],
      undefined,
      [variable('A', { description: 'from prompt' }), variable('B', { type: 'text', description: 'b' })],
      [variable('C', { scoped: true })],
    );
    expect(merged).toEqual([
      { name: 'A', type: 'text', required: true, description: 'from prompt' },
      { name: 'B', type: 'secret', required: false, description: 'b' },
      { name: 'C', type: 'text', required: false, scoped: true, description: '' },
    ]);
    expect(mergeVariableDefinitions()).toEqual([]);
  });

  it('VAR-2: missingVariables lists required names without a value, in declaration order', () => {
    const declared = [
      variable('API_KEY', { required: true }),
      variable('REGION'),
      variable('ACCOUNT', { required: true }),
      variable('TOKEN', { required: true }),
    ];
    expect(missingVariables(declared, { TOKEN: 't' })).toEqual(['API_KEY', 'ACCOUNT']);
    expect(missingVariables(declared, { API_KEY: 'k', ACCOUNT: 'a', TOKEN: 't' })).toEqual([]);
    expect(missingVariables([], {})).toEqual([]);
  });

  it("VAR-2: the registry gathers an agent's variables from its prompt's tools, the prompt and the agent", () => {
    const tool = defineTool({ description: 'X.', execute: ok, variables: [variable('TOOL_KEY', { required: true })] });
    const registry = new Registry({
      tools: { tool },
      models: [defineModel({ name: 'm', provider: 'scripted' })],
      prompts: [
        definePrompt({
          name: 'p',
          prompt: '',
          model: 'm',
          tools: ['tool'],
          tenvs: z.object({ PROMPT_VAR: z.string() }),
        }),
      ],
      agents: [
        defineAgent({
          name: 'a',
          sideA: { prompt: 'p' },
          variables: [variable('TOOL_KEY', { description: 'agent says' }), variable('AGENT_VAR')],
        }),
      ],
    });
    const agent = registry.agent('a');
    expect(agent).toBeDefined();
    const declared = registry.variablesFor(agent as NonNullable<typeof agent>);
    expect(declared.map((v) => [v.name, v.required, v.description])).toEqual([
      ['TOOL_KEY', true, 'agent says'],
      ['PROMPT_VAR', true, ''],
      ['AGENT_VAR', false, ''],
    ]);
    expect(missingVariables(declared, { PROMPT_VAR: 'x' })).toEqual(['TOOL_KEY']);
  });
});

describe('VAR-2: state.env() and state.tenvs inside a tool', () => {
  function harness() {
    const tenvs = z.object({ API_URL: z.string(), REGION: z.string().optional() });
    const outcomes: Record<string, string> = {};
    const probe = defineTool({
      description: 'Reads variables.',
      tenvs,
      execute: async (state) => {
        for (const name of ['API_URL', 'REGION', 'NOT_DECLARED']) {
          outcomes[name] = await state.env(name).then(
            (value) => `value:${value}`,
            (error: Error) => `error:${error.message}`,
          );
        }
        outcomes.tenvs = JSON.stringify(state.tenvs);
        return { status: 'success', result: 'read' };
      },
    });
    const h = createHarness({
      tools: { probe },
      variables: { values: { API_URL: 'https://api.example' } },
      script: [{ toolCalls: [{ name: 'probe' }] }, { text: 'ok' }],
    });
    return { h, outcomes };
  }

  it('VAR-2: state.env resolves a set variable and state.tenvs gives the merged record', async () => {
    const { h, outcomes } = harness();
    await h.send('go');
    expect(outcomes.API_URL).toBe('value:https://api.example');
    expect(outcomes.tenvs).toBe('{"API_URL":"https://api.example"}');
  });

  it('VAR-2: state.env rejects an unknown name and a declared-but-unset one with distinct, clear messages', async () => {
    const { h, outcomes } = harness();
    await h.send('go');
    expect(outcomes.NOT_DECLARED).toMatch(/^error:/);
    expect(outcomes.NOT_DECLARED).toContain('"NOT_DECLARED"');
    expect(outcomes.NOT_DECLARED).toContain('unknown variable');
    expect(outcomes.REGION).toMatch(/^error:/);
    expect(outcomes.REGION).toContain('"REGION"');
    expect(outcomes.REGION).toContain('has no value');
    expect(outcomes.REGION).not.toBe(outcomes.NOT_DECLARED?.replace('NOT_DECLARED', 'REGION'));
    expect(outcomes.REGION).not.toContain('unknown variable');
  });

  it('VAR-2: a tool that awaits an unset variable without catching gets an error tool message, not a crash', async () => {
    const needy = defineTool({
      description: 'Needs a key.',
      tenvs: z.object({ API_KEY: z.string() }),
      execute: async (state) => ({ status: 'success', result: await state.env('API_KEY') }),
    });
    const h = createHarness({ tools: { needy }, script: [{ toolCalls: [{ name: 'needy' }] }, { text: 'ok' }] });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.byRole('tool')[0]).toMatchObject({ tool_status: 'error' });
    expect(h.byRole('tool')[0]?.content).toContain('"API_KEY" has no value');
  });
});
