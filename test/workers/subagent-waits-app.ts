/**
 * Test agents for waits on other threads and values scoped to a subtree (WAIT-1, TASK-1, SCOPE-1): a
 * worker held busy until the test releases it, leads whose waits for it are capped, and a relay agent
 * declaring a scoped secret that hands work down a chain of its own kind.
 */
import { env } from 'cloudflare:workers';
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

/** Where a test releases a held worker: an R2 key, so no timing and no shared memory is involved. */
export const holdKey = (label: string) => `test-holds/${label}`;

export const tools = {
  hold_until_released: defineTool({
    description: 'Keep working until the test releases this label',
    args: z.object({ label: z.string().describe('The label the test releases') }),
    timeout: 600_000,
    execute: async (state, args) => {
      const bucket = (env as unknown as { FILES: R2Bucket }).FILES;
      while (!(await bucket.head(holdKey(args.label)))) {
        if (state.execution?.abortSignal?.aborted) return { status: 'error', error: 'stopped while held' };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { status: 'success', result: `released ${args.label}` };
    },
  }),
  show_relay_token: defineTool({
    description: 'Report whether the relay token reached this thread, without showing it',
    execute: async (state) => {
      const token = state.tenvs.RELAY_TOKEN;
      return {
        status: 'success',
        result: token ? `RELAY_TOKEN present (${token.length} chars)` : 'RELAY_TOKEN absent',
      };
    },
  }),
};

const relayToken = {
  name: 'RELAY_TOKEN',
  type: 'secret' as const,
  required: false,
  description: 'Token of the subtree the relay works for',
};

export const prompts = [
  definePrompt({ name: 'held_worker', prompt: 'You work.', model: 'scripted', tools: ['hold_until_released'] }),
  definePrompt({
    name: 'waiting_lead',
    prompt: 'You delegate and wait.',
    model: 'scripted',
    tools: ['task', 'echo', { name: 'held_worker', waitTimeout: 1000 }],
  }),
  definePrompt({
    name: 'scope_relay',
    prompt: 'You relay work down.',
    model: 'scripted',
    tools: ['task', 'show_relay_token'],
    variables: [{ ...relayToken, scoped: true }],
  }),
  definePrompt({
    name: 'scope_plain',
    prompt: 'You hold a plain token.',
    model: 'scripted',
    tools: ['task', { name: 'scope_relay' }],
  }),
];

export const agents = [
  defineAgent({ name: 'held_worker', exposeAsTool: true, sideA: { prompt: 'held_worker' } }),
  defineAgent({ name: 'waiting_lead', sideA: { prompt: 'waiting_lead' } }),
  defineAgent({ name: 'scope_relay', sideA: { prompt: 'scope_relay' } }),
  // The same name, not scoped: its value is this thread's own and a scoped child must not inherit it.
  defineAgent({ name: 'scope_plain', sideA: { prompt: 'scope_plain' }, variables: [relayToken] }),
];
