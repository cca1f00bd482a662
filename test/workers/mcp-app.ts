/**
 * Test agents for MCP client tools (LOCK-4, KIND-8): `mcp` uses the local MCP test server of
 * global-setup.ts over Streamable HTTP (`tools__*`, a bearer header from a secret variable), over
 * HTTP+SSE (`legacy__*`) and its 200 catalog tools deferred behind tool_search (`catalog__*`);
 * `mcp_oauth` uses the same tools behind OAuth, on the model server that records what it is sent.
 */
import type { VariableDefinition } from '../../src/index.js';
import { defineAgent, definePrompt } from '../../src/index.js';

const variables: VariableDefinition[] = [
  { name: 'MCP_URL', type: 'text', required: true, description: 'The test server, Streamable HTTP' },
  { name: 'MCP_SSE_URL', type: 'text', required: true, description: 'The test server, HTTP+SSE' },
  { name: 'MCP_TOKEN', type: 'secret', required: true, description: 'The bearer token the server is sent' },
];

const CATALOG = Array.from({ length: 200 }, (_, index) => `catalog_${String(index).padStart(3, '0')}`);

export const prompts = [
  definePrompt({
    name: 'mcp',
    prompt: 'You use MCP tools.',
    model: 'scripted',
    tools: ['tool_search'],
    variables,
    mcpServers: {
      tools: {
        url: '{MCP_URL}',
        headers: { authorization: 'Bearer {MCP_TOKEN}' },
        tools: ['echo', 'pixel', 'fetch_doc', 'fail', 'explode', 'slow', 'whoami'],
        // Seed 002's 60 s, shortened so the slow tool's test takes a second.
        timeout: 1000,
      },
      legacy: { url: '{MCP_SSE_URL}', transport: 'sse', tools: ['echo', 'whoami'] },
      catalog: { url: '{MCP_URL}', tools: CATALOG, deferred: true },
    },
  }),
  definePrompt({
    name: 'mcp_oauth',
    prompt: 'You use an MCP server that needs authorization.',
    model: 'remote',
    variables: [{ name: 'MCP_OAUTH_URL', type: 'text', required: true, description: 'The OAuth test server' }],
    mcpServers: { secure: { url: '{MCP_OAUTH_URL}', tools: ['echo', 'whoami'] } },
  }),
];

const allowTestHost = { permission: 'net.fetch', pattern: '127.0.0.1', action: 'allow' } as const;

export const agents = [
  defineAgent({
    name: 'mcp',
    sideA: { prompt: 'mcp' },
    permissions: [allowTestHost, { permission: 'tools__explode', pattern: '*', action: 'deny' }],
  }),
  defineAgent({ name: 'mcp_oauth', sideA: { prompt: 'mcp_oauth' }, permissions: [allowTestHost] }),
];
