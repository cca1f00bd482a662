#!/usr/bin/env node
// Runs the npm scripts named on the command line at the same time and waits for all of them:
// `node scripts/run-together.mjs typecheck:src lint:biome ...`. `npm test` checks with it, since
// the checks are independent and only the main typecheck takes long: the others run beside it.
// Each script's output is printed whole when it ends (not interleaved with the others'), with its
// time; exits 1 if any failed, after all have ended, naming those that failed.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-together.mjs <npm script>...');
  process.exit(2);
}

function run(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString().trimEnd();
      console.log(`\n> ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s`);
      if (text) console.log(text);
      resolve({ name, ok: code === 0 });
    });
  });
}

const results = await Promise.all(names.map(run));
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
