#!/usr/bin/env node
// `npm run dev`: the example agents under `wrangler dev`, offline, and beside them the units MCP
// server the `units` agent uses (harness/mcp-servers.mjs). Extra arguments go to wrangler.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoMcpServer } from '../harness/mcp-servers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The port the `units` prompt's UNITS_MCP_URL default names. */
const UNITS_PORT = 8790;

let units = null;
try {
  units = await startDemoMcpServer(UNITS_PORT);
  console.log(`units MCP server on ${units.url}`);
} catch (error) {
  console.warn(
    `the units MCP server could not start on port ${UNITS_PORT} (${error.message}); the units agent will say so`,
  );
}

const vars = {
  API_KEYS: 'dev-key',
  SECRETS_KEY: 'local-development-only-secrets-key',
  DEMO_MODE: 'true',
  // The egress policy refuses 127.0.0.1; the units server is a development host.
  EGRESS_ALLOW_HOSTS: `127.0.0.1:${UNITS_PORT}`,
  // Where OAuth authorization servers of MCP servers send the user back.
  PUBLIC_URL: 'http://localhost:8787',
};
const args = [
  join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
  'dev',
  ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
  ...process.argv.slice(2),
];
const wrangler = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
const stop = (signal) => wrangler.kill(signal);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
wrangler.on('exit', async (code) => {
  await units?.close();
  process.exit(code ?? 0);
});
