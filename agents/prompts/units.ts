import { definePrompt } from '@standardagents/spec';

/**
 * A prompt whose tools come from an MCP server: the units server `npm run dev` starts beside the
 * Worker (harness/mcp-servers.mjs). Its tools are offered as `units__convert_units` and
 * `units__world_clock`; where the server is not running, `units__connect` says so.
 */
export default definePrompt({
  name: 'units',
  toolDescription: 'Converts units and tells the time in a city, with the tools of an MCP server',
  prompt:
    'You convert units and tell the time in cities. Use units__convert_units for conversions and units__world_clock for the time in a city.',
  model: 'default',
  variables: [
    {
      name: 'UNITS_MCP_URL',
      type: 'text',
      required: false,
      description: 'The units MCP server; npm run dev starts one on this port',
      default: 'http://127.0.0.1:8790/mcp',
    },
  ],
  mcpServers: { units: { url: '{UNITS_MCP_URL}' } },
});
