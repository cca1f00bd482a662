/**
 * Test agents for what the runtime tells a model on its own: tools past a prompt's limit deferred
 * behind tool_search (DEFER-1), with MCP servers' tools counted; outside text delimited as data
 * (INJ-1), per tool and per prompt; the credential routine (CRED-1) followed by a model that only
 * reads what it is told.
 */
import { z } from 'zod';
import { defineAgent, defineModel, definePrompt, defineTool, type VariableDefinition } from '../../src/index.js';
import { followInstructions } from '../support/instruction-follower.js';

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

const servicesUrl: VariableDefinition = {
  name: 'SERVICES_URL',
  type: 'text',
  required: true,
  description: 'The local services',
};

export const tools = {
  // Its key is good when it starts with "good-"; otherwise the service answers 401 and the error says
  // nothing about credentials: only the status tells.
  cred_service: defineTool({
    description: 'Ask the accounts service for the balance',
    variables: [
      { name: 'CRED_KEY', type: 'secret', required: false, description: 'Key of the accounts service' },
      servicesUrl,
    ],
    execute: async (state) => {
      const good = (state.tenvs.CRED_KEY ?? '').startsWith('good-');
      const response = await state.fetch(`${state.tenvs.SERVICES_URL}/status/${good ? 200 : 401}/balance`);
      if (!response.ok) return { status: 'error', error: 'the balance could not be read' };
      return { status: 'success', result: 'balance: 42' };
    },
  }),
  // Two credentials, always refused (403).
  cred_two: defineTool({
    description: 'Ask the ledger, which needs two keys',
    variables: [
      { name: 'CRED_A', type: 'secret', required: false, description: 'First ledger key' },
      { name: 'CRED_B', type: 'secret', required: false, description: 'Second ledger key' },
      servicesUrl,
    ],
    execute: async (state) => {
      await state.fetch(`${state.tenvs.SERVICES_URL}/status/403/ledger`);
      return { status: 'error', error: 'the ledger refused' };
    },
  }),
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

export const models = [defineModel({ name: 'instruction_follower', provider: 'scripted', script: followInstructions })];

export const prompts = [
  definePrompt({
    name: 'cred_follow',
    prompt: 'You read balances.',
    model: 'instruction_follower',
    tools: ['cred_service'],
  }),
  definePrompt({ name: 'cred_cap', prompt: 'You read the ledger.', model: 'scripted', tools: ['cred_two'] }),
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
  defineAgent({ name: 'cred_follow', sideA: { prompt: 'cred_follow' } }),
  defineAgent({ name: 'cred_cap', sideA: { prompt: 'cred_cap' } }),
  defineAgent({ name: 'inj_web', sideA: { prompt: 'inj_web' } }),
  defineAgent({ name: 'inj_trusting', sideA: { prompt: 'inj_trusting' } }),
  defineAgent({ name: 'defer_many', sideA: { prompt: 'defer_many' }, permissions: [allowTestHost] }),
  defineAgent({ name: 'defer_few', sideA: { prompt: 'defer_few' } }),
];
