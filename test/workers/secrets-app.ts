/**
 * Test agents for the secret canary (EXE-8, VAR-3): tools that push a secret variable's value through
 * every channel of the hostile corpus (test/support/hostile-corpus.ts, section secrets), a prompt tool
 * and a child thread that do the same, and a tool whose child is deferred (SUB-6) with a secret.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type ThreadState, type ToolResult } from '../../src/index.js';
import { bash } from '../../src/tools/bash/bash.js';
import { directive } from '../support/directive-script.js';
import { SECRET_CHANNELS, type SecretChannel, secretPayload } from '../support/hostile-corpus.js';

const CANARY = { name: 'CANARY', type: 'secret', required: true, description: 'The canary secret' } as const;
// Child threads are headless: without a matching rule their tools would be refused (PERM-2).
const allowAll = [{ permission: '*', pattern: '*', action: 'allow' as const }];

const channels = SECRET_CHANNELS.map((entry) => entry.channel) as [SecretChannel, ...SecretChannel[]];

/** A value whose serialisation throws the secret: the error escapes the tool runner to the turn. */
function explosive(payload: string): string {
  const fail = () => {
    throw new Error(`serialisation failed: ${payload}`);
  };
  return { toJSON: fail, toString: fail } as unknown as string;
}

/** Does with the secret what the channel says; the result says what was done. */
async function drive(state: ThreadState, channel: SecretChannel, secret: string): Promise<ToolResult> {
  const payload = secretPayload(secret);
  const done = (what: string) => ({ status: 'success' as const, result: `${channel}: ${what}` });
  switch (channel) {
    case 'tool_result':
      return { status: 'success' as const, result: payload };
    case 'tool_error':
      return { status: 'error' as const, error: payload, stack: `Error: ${payload}\n    at canary` };
    case 'thrown_error':
      throw new Error(payload);
    case 'inject_message':
      await state.injectMessage({ role: 'system', content: payload, metadata: { payload, [secret]: secret } });
      return done('injected');
    case 'queue_message':
      await state.queueMessage({ role: 'user', content: payload, metadata: { payload } });
      return done('queued');
    case 'emit':
      state.emit('canary', { payload, [secret]: secret });
      return done('emitted');
    case 'write_file':
      await state.writeFile('/canary/state.txt', payload);
      return done('written');
    case 'write_bytes':
      await state.writeFile('/canary/bytes.txt', new TextEncoder().encode(payload));
      return done('written');
    case 'bash_file': {
      const lines = payload
        .split('\n')
        .map((line) => `'${line}'`)
        .join(' ');
      // The bash tool's own body, run with this call's state (the model cannot know the secret to type it).
      const command = `printf '%s\\n' ${lines} > /canary/bash.txt`;
      const ran = (await bash.execute(state, { command, timeout_ms: 10_000 })) as ToolResult;
      return ran.status === 'success' ? done('echoed by bash') : ran;
    }
    case 'set_value':
      await state.setValue('canary', { payload, [secret]: secret });
      await state.setValue(secret, payload);
      return done('stored');
    case 'set_context':
      await state.setContext({ payload });
      return done('stored in context');
    case 'notify_parent':
      await state.notifyParent(payload);
      return done('parent notified');
    case 'escaped_error':
      return { status: 'success' as const, result: explosive(payload) };
    case 'progress':
      return { status: 'error', error: 'progress events come from canary_progress' };
    default:
      return { status: 'error' as const, error: `no channel ${channel satisfies never}` };
  }
}

export const tools = {
  canary_channel: defineTool({
    description: 'Push the canary secret through one channel',
    args: z.object({ channel: z.enum(channels).describe('The channel') }),
    variables: [CANARY],
    execute: async (state, args) => drive(state, args.channel, await state.env('CANARY')),
  }),
  canary_progress: defineTool({
    description: 'Report the canary secret as a progress event',
    variables: [CANARY],
    execute: async function* (state) {
      yield { payload: secretPayload(await state.env('CANARY')) };
      return { status: 'success', result: 'progress: reported' };
    },
  }),
  canary_finish: defineTool({
    description: 'Finish the task with the canary secret as the answer',
    variables: [CANARY],
    execute: async (state) => ({
      status: 'success',
      result: `final answer: ${secretPayload(await state.env('CANARY'))}`,
    }),
  }),
  canary_defer: defineTool({
    description: 'Start a helper that needs one more variable, handing it a copy of the canary',
    variables: [CANARY],
    execute: async (state) => {
      await state.spawnChild({
        agent: 'canary_needs_more',
        message: directive([{ toolCalls: [{ name: 'canary_received' }] }, { text: 'received' }]),
        variables: { CANARY_COPY: await state.env('CANARY') },
      });
      return { status: 'success', result: 'started' };
    },
  }),
  canary_received: defineTool({
    description: 'Report which values the helper received, without showing them',
    execute: async (state) => ({
      status: 'success',
      result: JSON.stringify({
        copy: state.tenvs.CANARY_COPY?.length ?? 0,
        extra: state.tenvs.EXTRA_KEY?.length ?? 0,
      }),
    }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'canary_parent',
    prompt: 'You test secrets.',
    model: 'remote',
    tools: ['canary_channel', 'canary_progress', 'canary_sub', { name: 'canary_child' }],
  }),
  definePrompt({
    name: 'canary_sub',
    toolDescription: 'Run the canary sub-prompt on a request',
    prompt: 'You are a sub-prompt.',
    model: 'remote',
    tools: ['canary_channel'],
    exposeAsTool: true,
    includeChat: false,
  }),
  definePrompt({
    name: 'canary_child',
    prompt: 'You are a child.',
    model: 'remote',
    tools: ['canary_channel', 'canary_finish'],
  }),
  definePrompt({
    name: 'canary_deferring',
    prompt: '',
    model: 'scripted',
    // The helper canary_defer starts must be one the prompt offers (SUB-2).
    tools: ['canary_defer', 'question', { name: 'canary_needs_more', blocking: false }],
  }),
  definePrompt({ name: 'canary_needs_more', prompt: '', model: 'scripted', tools: ['canary_received'] }),
];

export const agents = [
  defineAgent({ name: 'canary_parent', sideA: { prompt: 'canary_parent' }, permissions: allowAll }),
  defineAgent({
    name: 'canary_child',
    exposeAsTool: true,
    toolDescription: 'Run the canary child on a task',
    // DEF-6: the stop tool's result is the child's answer to its parent.
    sideA: { prompt: 'canary_child', stopTool: 'canary_finish' },
    permissions: allowAll,
  }),
  defineAgent({ name: 'canary_deferring', sideA: { prompt: 'canary_deferring' }, permissions: allowAll }),
  defineAgent({
    name: 'canary_needs_more',
    sideA: { prompt: 'canary_needs_more' },
    permissions: allowAll,
    variables: [
      { name: 'CANARY_COPY', type: 'text', required: true, description: 'A copy of the canary, as text' },
      { name: 'EXTRA_KEY', type: 'secret', required: true, description: 'A key the human gives' },
    ],
  }),
];
