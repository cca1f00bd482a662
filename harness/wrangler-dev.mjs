/**
 * Starts and stops a real `wrangler dev` for the end-to-end tests and the benchmarks: on free ports,
 * bound to 127.0.0.1, with its own fresh persistence directory so no two runs share state. Its output
 * is captured and included in the error when it fails to start.
 *
 * wrangler dev rebuilds and restarts the Worker whenever a source file changes, which interrupts
 * running turns (they resume only when the thread's safety alarm fires). A benchmark measures one
 * build, so `snapshot` bundles the Worker once (`wrangler deploy --dry-run`) and serves that bundle.
 *
 * Plain ESM JavaScript so both the vitest end-to-end tests and `node bench/run.mjs` can import it;
 * types are in wrangler-dev.d.mts.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
/** Captured output kept for error messages. */
const MAX_OUTPUT = 200_000;
const STOP_GRACE_MS = 5_000;
const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

/**
 * @typedef {object} WranglerDevOptions
 * @property {string} [config] A wrangler.toml path relative to the repository root; default the root one.
 * @property {Record<string, string>} [vars] Passed as `--var NAME:value`.
 * @property {boolean} [snapshot] Serve a bundle built once at start: source edits do not reload it.
 * @property {number} [readyTimeoutMs] Default 90 s.
 * @property {string} [cwd] The project directory wrangler runs in; default this repository (a test
 *   of the packed package serves a project of its own).
 * @property {string} [persistTo] Keep the Worker's state (Durable Objects, R2, D1) here and leave it
 *   on stop, so a second wrangler dev started with it serves the same threads (a restart).
 * @property {number} [port] Listen on this port instead of a free one (a restart keeps its address).
 * @property {boolean} [inspector] Default true. False leaves wrangler's DevTools inspector detached, as
 *   in production: attached, it has workerd report every request and subrequest to it, and buffers
 *   those reports until a DevTools window connects (ten thousand model requests grew it by a gigabyte, and it
 *   slows every round). wrangler dev has no flag for this; it detaches the inspector when it runs in
 *   a VS Code JavaScript debug terminal, which it tells by VSCODE_INSPECTOR_OPTIONS being set.
 */

/**
 * @param {WranglerDevOptions} [options]
 */
export async function startWranglerDev(options = {}) {
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const tempDir = await mkdtemp(join(tmpdir(), 'wrangler-dev-'));
  // A served bundle has no wrangler.toml beside it: name the project's explicitly.
  const config = options.config ? ['--config', options.config] : options.snapshot ? ['--config', 'wrangler.toml'] : [];
  const script = options.snapshot
    ? [
        await bundle(config, join(tempDir, 'bundle'), options.cwd ?? ROOT).catch(async (error) => {
          await rm(tempDir, { recursive: true, force: true });
          throw error;
        }),
        '--no-bundle',
      ]
    : [];
  const args = [
    WRANGLER,
    'dev',
    ...script,
    ...config,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    options.persistTo ?? join(tempDir, 'state'),
    '--show-interactive-dev-session=false',
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.inspector === false ? { ...WRANGLER_ENV, VSCODE_INSPECTOR_OPTIONS: '{}' } : WRANGLER_ENV,
  });

  let output = '';
  /** Called on each piece of output while waiting for readiness. */
  let onOutput = () => {};
  /** @param {Buffer} chunk */
  const capture = (chunk) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT);
    onOutput();
  };
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const stop = async () => {
    if (running && child.pid !== undefined) {
      signalGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(/** @type {number} */ (child.pid), 'SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(tempDir, { recursive: true, force: true });
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  let readyAt = 0;
  /** @type {string | null} Why it is not ready, or null once it is. */
  const failure = await new Promise((resolve) => {
    /** @param {string | null} reason */
    const settle = (reason) => {
      clearTimeout(timer);
      onOutput = () => {};
      resolve(reason);
    };
    const timer = setTimeout(() => settle(`not ready after ${readyTimeoutMs} ms`), readyTimeoutMs);
    onOutput = () => {
      if (output.includes('Ready on')) {
        readyAt = performance.now();
        settle(null);
      }
    };
    onOutput();
    void exited.then(() => settle(`exited with code ${child.exitCode} before it was ready`));
  });
  if (failure !== null) {
    await stop();
    throw new Error(`wrangler dev ${failure}. Its output:\n${output}`);
  }

  return {
    /** The origin, e.g. `http://127.0.0.1:8787`. */
    url: `http://127.0.0.1:${port}`,
    port,
    /** wrangler's DevTools inspector (Chrome DevTools Protocol), when attached. */
    inspectorPort,
    /** The bundle served, with `snapshot` (deleted on stop); null otherwise. */
    bundlePath: options.snapshot ? script[0] : null,
    /** The wrangler process: workerd runs among its descendants. */
    pid: /** @type {number} */ (child.pid),
    /** When `Ready on` was printed, as performance.now() of this process. */
    readyAt,
    /** Everything wrangler dev printed so far (the last 200 kB). */
    output: () => output,
    /** Stops the whole process group (wrangler and workerd) and deletes the persisted state. */
    stop,
    /** Kills the whole process group at once, as a crash would (SIGKILL); the state stays. */
    kill: async () => {
      if (running && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      await exited;
    },
  };
}

/**
 * Bundles the Worker as `wrangler deploy` would, without deploying; returns the bundle's path.
 * @param {string[]} config
 * @param {string} outdir
 * @param {string} cwd
 */
async function bundle(config, outdir, cwd) {
  const args = [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, ...config];
  try {
    await promisify(execFile)(process.execPath, args, { cwd, env: WRANGLER_ENV });
  } catch (error) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string, stderr?: string }} */ (error);
    throw new Error(`wrangler deploy --dry-run failed:\n${stdout}${stderr}`);
  }
  return join(outdir, 'worker.js');
}

/**
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * A port nothing listens on right now, as the OS hands it out: for a Worker whose own origin must be
 * known before it starts (its PUBLIC_URL).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
