/**
 * Test agents for what a user sees of calls in progress (ARGS-1, BEAT-1): two offering `write`
 * (whose arguments stream as the scripted model types them, or as the local model server sends them,
 * as slowly as a test asks), a tool that runs until the thread is
 * stopped, and one that ignores its signal and never returns, so its timeout ends it. The test
 * Worker sets the heartbeat to HEARTBEAT_MS so heartbeats come in a fraction of a second.
 */
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

/** The test Worker's `toolHeartbeatMs`. */
export const HEARTBEAT_MS = 200;

export const tools = {
  hold_until_stopped: defineTool({
    description: 'Runs until the thread is stopped',
    timeout: 20_000,
    execute: (state) =>
      new Promise((resolve) => {
        state.execution?.abortSignal.addEventListener('abort', () => resolve({ status: 'success', result: 'stopped' }));
      }),
  }),
  hang_past_timeout: defineTool({
    description: 'Ignores its signal and never returns',
    timeout: 1_000,
    execute: () => new Promise(() => {}),
  }),
};

export const prompts = [
  definePrompt({
    name: 'call_visibility',
    prompt: '',
    model: 'scripted',
    tools: ['write', 'hold_until_stopped', 'hang_past_timeout'],
  }),
  // The local OpenAI-compatible server, which a test's message can ask to stream slowly.
  definePrompt({ name: 'call_visibility_remote', prompt: '', model: 'remote', tools: ['write'] }),
];

export const agents = [
  defineAgent({ name: 'call_visibility', sideA: { prompt: 'call_visibility' } }),
  defineAgent({ name: 'call_visibility_remote', sideA: { prompt: 'call_visibility_remote' } }),
];
