/**
 * Test agents for what the runtime tells a model on its own: tools past a prompt's limit deferred
 * behind tool_search (DEFER-1), with MCP servers' tools counted; outside text delimited as data
 * (INJ-1), per tool and per prompt.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type VariableDefinition } from '../../src/index.js';

const mcpVariables: VariableDefinition[] = [
  { name: 'MCP_URL', type: 'text', required: true, description: 'The test server, Streamable HTTP' },
  { name: 'MCP_TOKEN', type: 'secret', required: true, description: 'The bearer token the server is sent' },
];

/** 45 of the MCP test server's catalog tools, none marked deferred by the author. */
const CATALOG_45 = Array.from({ length: 45 }, (_, index) => `catalog_${String(index).padStart(3, '0')}`);

const answer = (name: string) =>
  defineTool({
    description: `Answer with the word ${name}`,
    args: z.object({ note: z.string().default('') }),
    execute: async (_state, args) => ({ status: 'success', result: `${name} ran ${args.note}`.trim() }),
  });

export const tools = {
  inj_relay: defineTool({
    description: 'Relay a text from another service, marked as outside data',
    args: z.object({ text: z.string() }),
    untrustedOutput: true,
    execute: async (_state, args) => ({ status: 'success', result: args.text }),
  }),
  dm_alpha: answer('alpha'),
  dm_beta: answer('beta'),
  dm_gamma: defineTool({
    description: 'Answer with the word gamma (deferred by its author)',
    deferred: true,
    execute: async () => ({ status: 'success', result: 'gamma ran' }),
  }),
};

export const prompts = [
  definePrompt({ name: 'inj_web', prompt: 'You read the web.', model: 'remote', tools: ['web_fetch', 'inj_relay'] }),
  definePrompt({
    name: 'inj_trusting',
    prompt: 'You read an intranet you trust.',
    model: 'remote',
    tools: ['web_fetch', 'inj_relay'],
    untrustedOutput: { web_fetch: false },
  }),
  definePrompt({
    name: 'defer_many',
    prompt: 'You have many tools.',
    model: 'remote',
    // tool_search is not listed: the runtime adds it once it defers something.
    tools: ['dm_alpha', 'question', 'dm_beta', 'todo', 'dm_gamma'],
    variables: mcpVariables,
    mcpServers: { many: { url: '{MCP_URL}', headers: { authorization: 'Bearer {MCP_TOKEN}' }, tools: CATALOG_45 } },
  }),
  definePrompt({
    name: 'defer_few',
    prompt: 'You have a few tools.',
    model: 'remote',
    tools: ['dm_alpha', 'dm_beta', 'question', 'tool_search', 'todo', 'dm_gamma'],
    maxLoadedTools: 3,
  }),
];

const allowTestHost = { permission: 'net.fetch', pattern: '127.0.0.1', action: 'allow' } as const;

export const agents = [
  defineAgent({ name: 'inj_web', sideA: { prompt: 'inj_web' } }),
  defineAgent({ name: 'inj_trusting', sideA: { prompt: 'inj_trusting' } }),
  defineAgent({ name: 'defer_many', sideA: { prompt: 'defer_many' }, permissions: [allowTestHost] }),
  defineAgent({ name: 'defer_few', sideA: { prompt: 'defer_few' } }),
];
