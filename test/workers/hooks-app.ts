/**
 * Test agents for hooks (HOOK-1 to HOOK-11), run through HTTP by test/workers/hooks.test.ts. The
 * `hooks_scripted` model plays each test's own directive; a reply `@saw` is replaced by what the
 * request held (`role:first words | ...`), so a test can see what the model was sent.
 */
import type { ModelMessage, ScriptedReply, ScriptedRequest } from '@standardagents/spec';
import { defineAgent, defineHook, defineModel, definePrompt, defineTool } from '../../src/index.js';
import { directiveScript } from '../support/directive-script.js';

/**
 * How long a hook may run in these tests: far longer than any of them takes (file writes included) on
 * a loaded machine, short enough that the one that never answers costs the test little.
 */
export const HOOK_TIMEOUT_MS = 2_000;

const seen = (message: ModelMessage): string => {
  const text = typeof message.content === 'string' ? message.content : '';
  const calls = message.role === 'assistant' && message.tool_calls ? `[${message.tool_calls.length} calls]` : '';
  return `${message.role}:${text.slice(0, 24)}${calls}`;
};

export const models = [
  defineModel({
    name: 'hooks_scripted',
    provider: 'scripted',
    script: (request: ScriptedRequest): ScriptedReply => {
      const reply = directiveScript(request);
      return reply.text === '@saw' ? { text: request.messages.map(seen).join(' | ') } : reply;
    },
  }),
];

export const tools = {
  hooks_lookup: defineTool({
    description: 'Look up the account key',
    execute: async () => ({ status: 'success', result: 'account key sk_live_4eC39HqLyjWDarjtT1zdp7dc' }),
  }),
  hooks_flaky: defineTool({
    description: 'Ask a service that is down',
    execute: async () => ({ status: 'error', error: 'upstream 503' }),
  }),
  hooks_noise: defineTool({
    description: 'Return a large noisy listing',
    execute: async () => ({ status: 'success', result: 'NOISE '.repeat(20) }),
  }),
};

export const hooks = [
  defineHook({
    hook: 'filter_messages',
    id: 'hooks_last_three',
    execute: async (_state, messages) => messages.slice(-3),
  }),
  defineHook({
    hook: 'before_store_tool_result',
    id: 'hooks_redact_keys',
    execute: async (_state, _call, result) =>
      typeof result.result === 'string'
        ? { ...result, result: result.result.replace(/sk_live_[A-Za-z0-9]+/g, '[redacted]') }
        : result,
  }),
  defineHook({
    hook: 'after_tool_call_failure',
    id: 'hooks_fallback',
    execute: async (_state, call) => ({ status: 'success', result: `fallback for ${call.function.name}` }),
  }),
  defineHook({
    hook: 'after_tool_call_success',
    id: 'hooks_drop_noise',
    execute: async (_state, call, result) => (call.function.name === 'hooks_noise' ? null : result),
  }),
  defineHook({
    hook: 'after_system_message',
    id: 'hooks_throws',
    execute: async (state) => {
      throw new Error(`cannot reach the vault with ${await state.env('HOOKS_VAULT_TOKEN')}`);
    },
  }),
  defineHook({
    hook: 'filter_messages',
    id: 'hooks_hangs',
    execute: () => new Promise<never>(() => {}),
  }),
  defineHook({
    hook: 'after_thread_created',
    id: 'hooks_write_private',
    execute: async (state) => {
      const outcome = await state.writeFile('/private/plan.txt', 'from a hook').then(
        () => 'written',
        (error: Error) => `refused: ${error.message}`,
      );
      await state.writeFile('/notes/hook-outcome.txt', outcome);
    },
  }),
];

const prompt = (name: string, hookIds: string[], tools: string[] = []) =>
  definePrompt({ name, prompt: `You are ${name}.`, model: 'hooks_scripted', tools, hooks: hookIds });

export const prompts = [
  prompt('hooks_trim', ['hooks_last_three']),
  prompt(
    'hooks_tools',
    ['hooks_redact_keys', 'hooks_fallback', 'hooks_drop_noise'],
    ['hooks_lookup', 'hooks_flaky', 'hooks_noise'],
  ),
  prompt('hooks_failing', ['hooks_throws', 'hooks_hangs']),
  // No hooks of its own: the agent's run (HOOK-2).
  definePrompt({ name: 'hooks_plain', prompt: 'You are hooks_plain.', model: 'hooks_scripted' }),
];

export const agents = [
  defineAgent({ name: 'hooks_trim', sideA: { prompt: 'hooks_trim' } }),
  defineAgent({ name: 'hooks_tools', sideA: { prompt: 'hooks_tools' } }),
  defineAgent({
    name: 'hooks_failing',
    sideA: { prompt: 'hooks_failing' },
    variables: [{ name: 'HOOKS_VAULT_TOKEN', type: 'secret', required: false, description: 'A vault token' }],
  }),
  defineAgent({
    name: 'hooks_contained',
    sideA: { prompt: 'hooks_plain' },
    hooks: ['hooks_write_private'],
    permissions: [{ permission: 'fs.write', pattern: '/private/**', action: 'deny' }],
  }),
];
