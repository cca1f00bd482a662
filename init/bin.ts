#!/usr/bin/env node
/**
 * The package's command, `standard-agents-cloudflare` (package.json `bin`): `npx
 * standard-agents-cloudflare init <folder>` writes a new project. The work is in cli.ts.
 */
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  log: (line) => console.log(line),
  error: (line) => console.error(line),
});
