import { defineAgent } from '@standardagents/spec';

/** An agent whose tools come from an MCP server (see prompts/units.ts). */
export default defineAgent({
  name: 'units',
  title: 'Units (MCP)',
  sideA: { prompt: 'units', maxSteps: 6 },
  permissions: [
    // Every call to an MCP server is a request to its host: allowing the host allows its tools.
    { permission: 'net.fetch', pattern: '127.0.0.1', action: 'allow' },
  ],
});
