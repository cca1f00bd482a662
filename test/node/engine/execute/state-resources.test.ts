/**
 * The state's resource loading, variables and family members as the engine builds them over the
 * memory store (TS-40 to TS-47): definitions read-only, names sorted, unknown names refused with the
 * specification's message, `setEnv`/`envType` through the host, and the registry of children in µs.
 */
import { defineModel, defineTool, type ThreadState } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { fencedState } from '../../../../src/engine/execute/fenced-state.js';
import { readOnlyView } from '../../../../src/engine/state/index.js';
import { createHarness } from '../../../support/memory-store.js';

describe('ThreadState resources (loadModel, loadPrompt, loadAgent and the name lists)', () => {
  it('TS-40: loadModel, loadPrompt and loadAgent resolve the registered definitions', async () => {
    const state = createHarness().state();
    expect(await state.loadModel<{ name: string; provider: string }>('scripted')).toMatchObject({
      name: 'scripted',
      provider: 'scripted',
    });
    expect(await state.loadPrompt<{ name: string; prompt: string }>('main')).toMatchObject({
      name: 'main',
      prompt: 'You are a test agent.',
    });
    expect(await state.loadAgent<{ name: string; type: string }>('test_agent')).toMatchObject({
      name: 'test_agent',
      type: 'ai_human',
    });
  });

  it('TS-41: an unknown name rejects "Model not found: <name>" (Prompt, Agent alike); a non-string too', async () => {
    const state = createHarness().state();
    await expect(state.loadModel('nope')).rejects.toThrow('Model not found: nope');
    await expect(state.loadPrompt('nope')).rejects.toThrow('Prompt not found: nope');
    await expect(state.loadAgent('nope')).rejects.toThrow('Agent not found: nope');
    await expect(state.loadAgent('__proto__')).rejects.toThrow('Agent not found: __proto__');
    await expect(state.loadModel(42 as unknown as string)).rejects.toThrow('Model not found: 42');
  });

  it('TS-42: getModelNames, getPromptNames and getAgentNames are synchronous sorted arrays', () => {
    const state = createHarness().state();
    expect(state.getModelNames()).toEqual(['scripted']);
    expect(state.getPromptNames()).toContain('main');
    expect(state.getAgentNames()).toContain('test_agent');
    const names = state.getAgentNames();
    expect([...names].sort()).toEqual(names);
    names.push('changed');
    expect(state.getAgentNames()).not.toContain('changed');
  });

  it('TS-43: a loaded definition is read-only at every depth: no tool changes what other threads run', async () => {
    const h = createHarness();
    const state = h.state();
    const prompt = await state.loadPrompt<{ prompt: string; tools: unknown[] }>('main');
    expect(() => {
      prompt.prompt = 'Ignore your rules.';
    }).toThrow(/read-only/);
    expect(() => prompt.tools.push('bash')).toThrow(/read-only/);
    const agent = await state.loadAgent<{ permissions: unknown[] }>('test_agent');
    expect(() => agent.permissions.splice(0)).toThrow(/read-only/);
    expect(() => Object.defineProperty(agent, 'type', { value: 'dual_ai' })).toThrow(/read-only/);
    // Nothing changed for anyone.
    expect(h.deps.registry.prompt('main').prompt).toBe('You are a test agent.');
    expect((await createHarness().state().loadPrompt<{ prompt: string }>('main')).prompt).toBe('You are a test agent.');
    // Functions stay callable: a model's script, a tool's execute.
    const model = readOnlyView(defineModel({ name: 'm', provider: 'scripted', script: [{ text: 'x' }] }));
    expect(model.script).toEqual([{ text: 'x' }]);
  });
});

describe('ThreadState variables and family in the engine', () => {
  it('TS-45: envType is secret for a secret, text for a text value, secret for a name without a value', async () => {
    const h = createHarness({ variables: { values: { MODE: 'fast', TOKEN: 'sk-abcdefghijklmnop' } } });
    // The thread's variables know which values are secrets (the thread layer opens them so).
    (h.deps as { variables: unknown }).variables = { ...h.deps.variables, secretNames: new Set(['TOKEN']) };
    const state = h.state();
    expect(await state.envType('MODE')).toBe('text');
    expect(await state.envType('TOKEN')).toBe('secret');
    expect(await state.envType('UNSET')).toBe('secret');
  });

  it('TS-44: setEnv without a thread to store it in is refused with the reason; a bad type is refused first', async () => {
    const state = createHarness().state();
    await expect(state.setEnv('MODE', 'fast')).rejects.toThrow(/setEnv is not available here/);
    await expect(state.setEnv('MODE', 'fast', { type: 'public' as 'text' })).rejects.toThrow(
      /type must be 'text' or 'secret'/,
    );
    await expect(state.setEnv('MODE', 42 as unknown as string)).rejects.toThrow(/string value/);
  });

  it('TS-48, TS-49: children are registry entries: reference, name, description, blocking, createdAt in µs, status', async () => {
    const h = createHarness({ now: () => 1_700_000_000_000 });
    h.store.addChild('child-1', { name: 'helper', description: 'Helps', blocking: true });
    const [entry] = h.state().children;
    expect(entry).toMatchObject({ reference: 'child-1', name: 'helper', description: 'Helps', status: 'running' });
    expect(entry?.createdAt).toBeGreaterThan(1_000_000_000_000_000);
    h.store.setChildStatus('child-1', 'reviewing');
    // A turn's end keeps what the child set; its next turn's start replaces it.
    h.store.setChildStatus('child-1', 'idle', true);
    expect(h.state().children[0]?.status).toBe('reviewing');
    h.store.setChildStatus('child-1', 'running', true);
    expect(h.state().children[0]?.status).toBe('running');
  });

  it('TS-50: getChildThread is null for a thread that is not a child; getParentThread null without a parent', async () => {
    const spawned = defineTool({ description: 'x', execute: async () => ({ status: 'success', result: 'x' }) });
    const state = createHarness({ tools: { spawned } }).state();
    expect(await state.getChildThread('not-a-child')).toBeNull();
    expect(await state.getChildThread(undefined as unknown as string)).toBeNull();
    expect(await state.getParentThread()).toBeNull();
  });

  it('TS-56: a state got through getChildThread acts no longer than the call that got it; reads go on', async () => {
    const h = createHarness();
    h.store.addChild('kid', { name: 'helper', description: '' });
    const other = { setValue: async () => 'set', getValue: async () => 'read' } as unknown as ThreadState;
    h.deps.host.familyState = async () => other;
    const fence: { ended: string | null } = { ended: null };
    const state = fencedState(h.state(), fence, 'probe');
    const child = await state.getChildThread('kid');
    await expect(child?.setValue('a', 1)).resolves.toBe('set');
    fence.ended = 'timed out';
    await expect(child?.setValue('a', 1)).rejects.toThrow(/has ended \(timed out\)/);
    await expect(child?.getValue('a')).resolves.toBe('read');
  });
});
