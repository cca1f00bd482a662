/**
 * The code of a new project: the Worker's entry, one agent with its model and prompt, one tool, and
 * a README with the two commands that run it. docs/deploy.md shows them as written here (a test
 * compares the two).
 */

export function workerEntry(): string {
  return `// The Worker: the Standard Agents runtime serving the definitions in agents/.
// The runtime is imported first: inside a tool call the global fetch is the call's checked fetch,
// and a module that keeps a reference to fetch when it loads keeps that one only if it loads after.
import { createRuntime } from 'standard-agents-cloudflare';
import * as app from '../agents/index.js';

const runtime = createRuntime(app);
export const Thread = runtime.Thread; // the Durable Object class wrangler.toml names
export const SandboxNetwork = runtime.SandboxNetwork; // the network of programs granted one
export const Tenant = runtime.Tenant; // one per tenant: its rate limits and spend quotas
export default runtime.worker;
`;
}

export function agentsIndex(): string {
  return `// Everything the Worker serves: tools (a tool's name is its key), models, prompts and agents.
import { defineAgent, defineModel, definePrompt } from '@standardagents/spec';
import count_words from './tools/count_words.js';

export const tools = { count_words };

// Any OpenAI-compatible endpoint: OPENAI_API_KEY (and OPENAI_BASE_URL for another server) and MODEL.
// Without a key, in demo mode (.dev.vars), an offline demo model answers instead.
export const models = [defineModel({ name: 'default', provider: 'openai' })];

export const prompts = [
  definePrompt({
    name: 'assistant',
    toolDescription: 'An assistant that counts words',
    prompt: 'You are a helpful assistant. Use count_words to count the words of a text.',
    model: 'default',
    tools: ['count_words'],
  }),
];

export const agents = [
  defineAgent({
    name: 'assistant',
    title: 'Assistant',
    type: 'ai_human',
    sideA: { prompt: 'assistant', maxSteps: 10 },
    // A tool call no rule allows asks the person in the thread first.
    permissions: [{ permission: 'count_words', action: 'allow' }],
  }),
];
`;
}

export function countWordsTool(): string {
  return `import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Count the words of a text',
  args: z.object({ text: z.string().describe('The text to count the words of') }),
  execute: async (_state, args) => {
    const words = args.text.split(/\\s+/).filter((word) => word !== '').length;
    return { status: 'success', result: \`\${words} words\` };
  },
});
`;
}

export function readme(name: string): string {
  return `# ${name}

Agents on Cloudflare Workers, served by the Standard Agents runtime (standard-agents-cloudflare).

    npm install
    npm run dev

\`npm run dev\` serves http://localhost:8787: open it for the inspector, sign in with \`dev-key\`, start a
thread with the \`assistant\` agent and write \`count_words {"text": "one two three"}\`. Without a model
key an offline demo model answers and calls the tools you name; put a real key in \`.dev.vars\`.

Deploy with \`npx wrangler secret put API_KEYS\`, \`npx wrangler secret put SECRETS_KEY\` (and each
model's key), then \`npm run deploy\`.
`;
}
