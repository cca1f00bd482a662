/**
 * store_secret in the engine (VAR-5): offered to every prompt of an agent with a secret variable,
 * waits with a value-free `secret` interaction, refuses undeclared names, counts its rounds per
 * variable per turn, and fails at once on a headless thread.
 */
import { defineAgent, defineModel, definePrompt, defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { Registry } from '../../../src/engine/registry/registry.js';
import type { Script, ToolResult } from '../../../src/spec/index.js';
import { lintTool } from '../../../src/spec/tool-lint.js';
import { builtinTools } from '../../../src/tools/index.js';
import { MAX_SECRET_ROUNDS, STORE_SECRET_TOOL, storeSecret } from '../../../src/tools/session/store-secret.js';
import { createHarness } from '../../support/memory-store.js';

const callService = defineTool({
  description: 'Call the service with its API key',
  variables: [{ name: 'SERVICE_KEY', type: 'secret', required: false, description: 'Key of the service' }],
  execute: async (state) =>
    state.tenvs.SERVICE_KEY ? { status: 'success', result: 'ok' } : { status: 'error', error: '401 Unauthorized' },
});
const plain = defineTool({ description: 'Answer pong.', execute: async () => ({ status: 'success', result: 'pong' }) });

function harness(script: Script, headless = false) {
  return createHarness({
    tools: { call_service: callService },
    builtinTools: { [STORE_SECRET_TOOL]: storeSecret },
    script,
    info: { headless },
  });
}

const ask = (name = 'SERVICE_KEY') => ({
  toolCalls: [{ name: STORE_SECRET_TOOL, arguments: { name, reason: '401' } }],
});

async function begin(h: ReturnType<typeof harness>, name: string) {
  const hooks = storeSecret.interaction;
  if (!hooks) throw new Error('store_secret is interactive');
  return hooks.begin(h.state(), { name, reason: '' });
}

describe('store_secret (VAR-5)', () => {
  it('VAR-5, DEF-7: store_secret is a built-in that passes the tool-design lint', () => {
    expect(builtinTools[STORE_SECRET_TOOL]).toBe(storeSecret);
    expect(storeSecret.acpKind).toBe('other');
    expect(lintTool(STORE_SECRET_TOOL, storeSecret)).toEqual([]);
  });

  it('VAR-5: the registry offers it to every prompt of an agent with a secret variable, listed or not', () => {
    const model = defineModel({ name: 'm', provider: 'scripted', script: [] });
    const registry = new Registry(
      {
        tools: { call_service: callService, ping: plain },
        models: [model],
        prompts: [
          definePrompt({ name: 'with_tool', prompt: '', model: 'm', tools: ['call_service'] }),
          definePrompt({ name: 'listed', prompt: '', model: 'm', tools: ['ping', STORE_SECRET_TOOL] }),
          definePrompt({ name: 'agent_secret', prompt: '', model: 'm', tools: ['ping'] }),
          definePrompt({ name: 'none', prompt: '', model: 'm', tools: ['ping'] }),
        ],
        agents: [
          defineAgent({ name: 'a', sideA: { prompt: 'with_tool' } }),
          defineAgent({ name: 'b', sideA: { prompt: 'listed' } }),
          defineAgent({
            name: 'c',
            sideA: { prompt: 'agent_secret' },
            variables: [{ name: 'TEAM_KEY', type: 'secret', required: false, description: 'Key of the team' }],
          }),
          defineAgent({ name: 'd', sideA: { prompt: 'none' } }),
        ],
      },
      { [STORE_SECRET_TOOL]: storeSecret },
    );
    const names = (prompt: string) => registry.toolsFor(prompt).map((tool) => tool.name);
    expect(names('with_tool')).toEqual(['call_service', STORE_SECRET_TOOL]);
    expect(names('listed')).toEqual(['ping', STORE_SECRET_TOOL]);
    expect(names('agent_secret')).toEqual(['ping', STORE_SECRET_TOOL]);
    // Nothing it could store: not offered.
    expect(names('none')).toEqual(['ping']);
  });

  it('VAR-5: the call waits with a secret interaction whose payload holds the name and reason only', async () => {
    const h = harness([{ toolCalls: [{ name: 'call_service' }] }, ask(), { text: 'done' }]);
    expect(await h.send('go')).toEqual({ kind: 'waiting' });
    expect(h.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['call_service', STORE_SECRET_TOOL]);
    const [wait] = h.store.openInteractions();
    expect(wait).toMatchObject({
      kind: 'secret',
      toolName: STORE_SECRET_TOOL,
      payload: { name: 'SERVICE_KEY', reason: '401' },
    });
    expect(h.frames.find((frame) => frame.type === 'waiting')).toMatchObject({ kind: 'secret' });
    h.store.answerInteraction(wait?.toolCallId as string, 'secret', { stored: true });
    expect(await h.run()).toMatchObject({ kind: 'done' });
    expect(h.byRole('tool').map((m) => [m.tool_status, m.content])).toEqual([
      [
        'error',
        'Error: 401 Unauthorized\nCredential hint: the error reports a refused credential. Variables to refresh: SERVICE_KEY. Call store_secret for each, then retry this call once.',
      ],
      [
        'success',
        'The user stored a new value for "SERVICE_KEY" (the value is kept from you on purpose). Retry the tool call that failed.',
      ],
    ]);
  });

  it('VAR-5: an undeclared name is refused at once; a declared one without a value is accepted', async () => {
    const h = harness([]);
    h.user('go');
    expect(await begin(h, 'NOT_DECLARED')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('declares a variable named "NOT_DECLARED"'),
    });
    // SERVICE_KEY has no value: state.env refuses it as unset, not as unknown.
    expect(await begin(h, 'SERVICE_KEY')).toEqual({ kind: 'secret', payload: { name: 'SERVICE_KEY', reason: '' } });
  });

  it('VAR-5: at most two rounds per variable per turn; the next user message starts over', async () => {
    const h = createHarness({
      tools: { call_service: callService },
      builtinTools: { [STORE_SECRET_TOOL]: storeSecret },
      prompt: { variables: [{ name: 'OTHER_KEY', type: 'secret', required: false, description: 'Another key' }] },
    });
    h.user('first turn');
    for (let round = 0; round < MAX_SECRET_ROUNDS; round++) {
      expect(await begin(h, 'SERVICE_KEY')).toMatchObject({ kind: 'secret' });
    }
    const third = (await begin(h, 'SERVICE_KEY')) as ToolResult;
    expect(third).toMatchObject({ status: 'error' });
    expect(third.status === 'error' && third.error).toContain('already asked for 2 times in this turn');
    // Another variable has rounds of its own.
    expect(await begin(h, 'OTHER_KEY')).toMatchObject({ kind: 'secret' });
    h.user('second turn');
    expect(await begin(h, 'SERVICE_KEY')).toMatchObject({ kind: 'secret' });
  });

  it('VAR-5: on a headless thread the call fails at once and the turn goes on', async () => {
    const h = harness([ask(), { text: 'reported' }], true);
    expect(await h.send('go')).toMatchObject({ kind: 'done' });
    expect(h.store.openInteractions()).toEqual([]);
    expect(h.byRole('tool')[0]).toMatchObject({ tool_status: 'error', content: expect.stringContaining('headless') });
    expect(h.byRole('assistant').at(-1)?.content).toBe('reported');
  });
});
