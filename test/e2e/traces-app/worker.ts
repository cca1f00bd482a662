/**
 * The Worker of test/e2e/traces.test.ts: one agent, `traced`, whose prompt offers every kind of call
 * a turn can make, so one turn records every kind of span (TRACE-1): a plain tool (`echo`), a tool
 * that reads a secret variable and quotes it in its failure (`use_token`), a prompt tool whose own
 * step calls a tool (`summarize`, calling `add`), an agent offered as a tool that runs in a child
 * thread (`helper`, calling `echo` there), and a local MCP server's `echo` (`local__echo`). The model
 * is the test's local OpenAI-compatible server, which tells the three prompts apart by their system
 * prompt.
 */
import { z } from 'zod';
import { createRuntime, defineAgent, defineModel, definePrompt, defineTool } from '../../../src/index.js';

const echo = defineTool({
  description: 'Return the given text',
  args: z.object({ text: z.string().describe('Text to return') }),
  execute: async (_state, args) => ({ status: 'success', result: args.text }),
});

const add = defineTool({
  description: 'Add two numbers',
  args: z.object({ a: z.number(), b: z.number() }),
  execute: async (_state, args) => ({ status: 'success', result: String(args.a + args.b) }),
});

const use_token = defineTool({
  description: 'Call a service with the service token',
  variables: [{ name: 'SERVICE_TOKEN', type: 'secret', required: true, description: 'Token of the service' }],
  execute: async (state) => {
    const token = await state.env('SERVICE_TOKEN');
    // On purpose: the failure quotes the secret, which the scrubber must hide wherever it goes.
    return { status: 'error', error: `the service refused token ${token}` };
  },
});

const traced = definePrompt({
  name: 'traced',
  prompt: 'You are traced.',
  model: 'default',
  // With a subagent configuration the agent tool runs in a child thread (listed by name alone, it would be a handoff).
  tools: ['echo', 'use_token', 'summarize', { name: 'helper', initUserMessageProperty: 'question' }],
  variables: [{ name: 'MCP_URL', type: 'text', required: true, description: 'The local MCP server' }],
  mcpServers: { local: { url: '{MCP_URL}', tools: ['echo'] } },
});

const summarize = definePrompt({
  name: 'summarize',
  toolDescription: 'Summarize with a sum',
  prompt: 'You summarize.',
  model: 'default',
  tools: ['add'],
  exposeAsTool: true,
  includeChat: false,
});

const helping = definePrompt({ name: 'helping', prompt: 'You help.', model: 'default', tools: ['echo'] });

const runtime = createRuntime({
  tools: { echo, add, use_token },
  models: [defineModel({ name: 'default', provider: 'openai' })],
  prompts: [traced, summarize, helping],
  agents: [
    defineAgent({ name: 'traced', sideA: { prompt: 'traced', maxSteps: 10 } }),
    defineAgent({
      name: 'helper',
      exposeAsTool: true,
      toolDescription: 'Answer as the helper agent',
      sideA: { prompt: 'helping', maxSteps: 10 },
    }),
  ],
  // Every call runs without asking; the local MCP server listens on 127.0.0.1, which the egress
  // policy refuses unless allowed.
  permissions: [
    ...['echo', 'add', 'use_token', 'summarize', 'helper', 'local__echo'].map((permission) => ({
      permission,
      action: 'allow' as const,
    })),
    { permission: 'net.fetch', pattern: '127.0.0.1', action: 'allow' },
  ],
});

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
