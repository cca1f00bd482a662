/**
 * The Worker of test/e2e/client.test.ts: the example application (agents/) and one more agent,
 * `console`, whose prompt offers a client tool (`pick_color`: the thread waits until the client posts
 * its output) and reads a secret variable (`CONSOLE_TOKEN`: declared, so `store_secret` is offered
 * and the value a client posts reaches `token_length`).
 */
import { z } from 'zod';
import * as examples from '../../../agents/index.js';
import { createRuntime, defineAgent, defineClientTool, definePrompt, defineTool } from '../../../src/index.js';

const pick_color = defineClientTool({
  description: 'Ask the client to pick a color',
  args: z.object({ palette: z.array(z.string()).describe('Colors to choose from') }),
  outputSchema: z.object({ color: z.string() }),
});

const token_length = defineTool({
  description: 'Report how many characters the stored console token has',
  variables: [{ name: 'CONSOLE_TOKEN', type: 'secret', required: false, description: 'The console token' }],
  execute: async (state) => {
    const token = await state.env('CONSOLE_TOKEN').catch(() => null);
    return { status: 'success', result: token ? `the token has ${token.length} characters` : 'no token stored' };
  },
});

const consolePrompt = definePrompt({
  name: 'console',
  toolDescription: 'Picks colors with the client and checks the console token',
  prompt: 'You pick colors with pick_color and check the console token with token_length.',
  model: 'default',
  tools: ['pick_color', 'token_length'],
});

const consoleAgent = defineAgent({
  name: 'console',
  title: 'Console',
  type: 'ai_human',
  sideA: { prompt: 'console', maxSteps: 10 },
  permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
});

const runtime = createRuntime({
  ...examples,
  tools: { ...examples.tools, pick_color, token_length },
  prompts: [...examples.prompts, consolePrompt],
  agents: [...examples.agents, consoleAgent],
  // A frame per text delta: the stream tests cut a socket after a count of deltas, which coalescing
  // (test/workers/coalesced-text.test.ts) would make a count of 50 ms intervals instead.
  limits: { deltaFlushMs: 0 },
});

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
