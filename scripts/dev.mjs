#!/usr/bin/env node
// `npm run dev`: the example agents under `wrangler dev`, offline, and beside them the units MCP
// server the `units` agent uses (harness/mcp-servers.mjs). Extra arguments go to wrangler.
//
// It serves the development Worker (src/dev-worker.ts): a mistake in a definition shows as an error
// page at / and a 503 on the API until the fix is saved, instead of stopping the Worker. A file that
// does not parse holds wrangler's requests until it is fixed; if wrangler exits instead (its custom
// build, the inspector bundle, failed at start), this script says so, keeps the MCP server up, and
// starts wrangler again at the next change in the folders wrangler watches.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoMcpServer } from '../harness/mcp-servers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The port the `units` prompt's UNITS_MCP_URL default names (another for a test of this script). */
const UNITS_PORT = Number(process.env.UNITS_MCP_PORT ?? 8790);
/** Folders whose change restarts a wrangler that exited: wrangler.toml's `[build] watch_dir`. */
const WATCHED = ['agents', 'src', 'inspector/src', 'client'];
/** Saves come in bursts (an editor writes a file in several steps): start once they settle. */
const SETTLE_MS = 300;

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
  // The development Worker in place of wrangler.toml's `main` (the deployed one, which fails loudly).
  join('src', 'dev-worker.ts'),
  ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
  ...process.argv.slice(2),
];

let wrangler = null;
let stopping = false;

function startWrangler() {
  wrangler = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  wrangler.on('exit', (code, signal) => {
    wrangler = null;
    if (stopping) return void shutdown(code ?? 0);
    console.log(
      `\n[dev] wrangler dev exited (${signal ?? `code ${code}`}), most likely a file it cannot build; ` +
        `the MCP server stays up. Waiting for a change under ${WATCHED.join('/, ')}/ to start it again…\n`,
    );
    waitForChange().then(startWrangler);
  });
}

/** Resolves at the first change under the watched folders, once the burst of writes has settled. */
function waitForChange() {
  return new Promise((resolve) => {
    let timer = null;
    const watchers = WATCHED.map((folder) =>
      watch(join(root, folder), { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          for (const watcher of watchers) watcher.close();
          console.log('[dev] a file changed: starting wrangler dev again');
          resolve();
        }, SETTLE_MS);
      }),
    );
  });
}

async function shutdown(code) {
  await units?.close();
  process.exit(code);
}

const stop = (signal) => {
  stopping = true;
  if (wrangler) wrangler.kill(signal);
  else void shutdown(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
startWrangler();
