/**
 * The benchmark Worker: the runtime serving agents whose only tool does nothing, so a tool round
 * costs exactly the runtime's own work, next to the Floor object (bench/floor.ts) that does only the
 * work any agent loop must do per round. `/floor/*` goes to a fresh Floor object per path, everything
 * else to the runtime.
 *
 * Two agents differ only in what they send the model: `bench` sends the whole conversation (the
 * default), `bench-turn` only the current turn, so the history benchmark can tell the cost of a
 * longer request body from the cost of a longer log. `bench-anthropic`, `bench-google` and
 * `bench-workers-ai` are `bench` on each other provider adapter, all answered by the same local model
 * server (bench/wire-protocols.mjs).
 *
 * `bench-code` calls `noop` or `bench_program`, which runs a `state.runCode` program making a given
 * number of `noop` calls from inside its sandbox.
 *
 * Workers AI is reached through a binding, and wrangler dev has none offline: each thread's env gets
 * `AI`, a binding that posts `{ model, inputs }` to the model server and hands back the streamed body,
 * as the real binding returns the stream of its own fetch.
 *
 * `GET /bench/open` answers `ok` with no sign-in; `GET /bench/signed` answers the same behind the
 * runtime's sign-in middleware (its rate-limit admission included), so the difference of their times
 * is what signing in costs a request, with nothing else of the API around it. `GET /bench/d1` answers
 * `ok` after one bare D1 query (`SELECT 1`), the least a sign-in reading D1 can add.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { HttpEnv } from '../src/http/contract/index.js';
import { signIn } from '../src/http/identity/index.js';
import { createRuntime, defineAgent, defineModel, definePrompt, defineTool, type RuntimeEnv } from '../src/index.js';
import { Floor } from './floor.js';
import { countDelivery, countRequest, meteredEnv, meterStorage, readMeter } from './meter.js';

interface BenchEnv extends RuntimeEnv {
  FLOOR: DurableObjectNamespace<Floor>;
  /** The model server's Workers AI endpoint. */
  WORKERS_AI_URL?: string;
  /** `1`: count billable units (bench/meter.ts), read at `GET /bench/meter`. */
  BENCH_METER?: string;
}

/** The other provider adapters, each timed against the same model server as `bench` (OpenAI). */
const OTHER_PROVIDERS = [
  { provider: 'anthropic', model: 'bench-model' },
  { provider: 'google', model: 'bench-model' },
  { provider: 'workers-ai', model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast' },
] as const;

const noop = defineTool({
  description: 'Does nothing',
  execute: async () => ({ status: 'success', result: 'ok' }),
});

/** Runs a program that calls `noop` `calls` times: the cost of runCode, and of a call from inside it. */
const benchProgram = defineTool({
  description: 'Run a program that calls noop the given number of times',
  args: z.object({ calls: z.number().int().min(0) }),
  execute: async (state, args) => {
    const outcome = await state.runCode('for (let i = 0; i < input; i++) await tools.noop({});\nreturn input;', {
      input: args.calls,
      tools: ['noop'],
    });
    return outcome.status === 'success'
      ? { status: 'success', result: String(outcome.result) }
      : { status: 'error', error: outcome.error };
  },
});

const prompt = (name: string, includeChat: boolean, model = 'bench') =>
  definePrompt({ name, prompt: 'Call noop until told otherwise.', model, tools: ['noop'], includeChat });
const agent = (name: string) => defineAgent({ name, sideA: { prompt: name, maxSteps: 100 } });
const otherNames = OTHER_PROVIDERS.map(({ provider }) => `bench-${provider}`);

const runtime = createRuntime({
  tools: { noop, bench_program: benchProgram },
  models: [
    defineModel({ name: 'bench', provider: 'openai' }),
    ...OTHER_PROVIDERS.map(({ provider, model }) => defineModel({ name: `bench-${provider}`, provider, model })),
  ],
  prompts: [
    prompt('bench', true),
    prompt('bench-turn', false),
    ...otherNames.map((name) => prompt(name, true, name)),
    // MCP: `noop`, or `whoami` of the local MCP server bench/run.mjs starts (LOCK-4).
    definePrompt({
      name: 'bench-mcp',
      prompt: 'Call what you are told.',
      model: 'bench',
      tools: ['noop'],
      includeChat: true,
      variables: [{ name: 'BENCH_MCP_URL', type: 'text', required: true, description: 'The local MCP server' }],
      mcpServers: { local: { url: '{BENCH_MCP_URL}', tools: ['whoami'] } },
    }),
    definePrompt({
      name: 'bench-code',
      prompt: 'Call what you are told.',
      model: 'bench',
      tools: ['noop', 'bench_program'],
      includeChat: true,
    }),
  ],
  agents: [agent('bench'), agent('bench-turn'), ...otherNames.map(agent), agent('bench-code'), agent('bench-mcp')],
  // Each round passes the permission check like any call.
  permissions: [
    { permission: 'noop', action: 'allow' },
    { permission: 'bench_program', action: 'allow' },
    { permission: 'net.fetch', pattern: '127.0.0.1', action: 'allow' },
  ],
});

const serveRuntime = runtime.worker.fetch;
if (!serveRuntime) throw new Error('the runtime Worker has no fetch handler');

export class Thread extends runtime.Thread {
  private readonly metered: boolean;
  constructor(ctx: DurableObjectState, env: BenchEnv) {
    const metered = env.BENCH_METER === '1';
    if (metered) meterStorage(ctx.storage);
    super(ctx, meteredEnv({ ...env, AI: workersAIOverHttp(env.WORKERS_AI_URL ?? '') }));
    this.metered = metered;
  }
  override async alarm(): Promise<void> {
    if (this.metered) countDelivery('alarms');
    return super.alarm();
  }
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (this.metered) countDelivery('webSocketMessages');
    return super.webSocketMessage(socket, message);
  }
}

export class Tenant extends runtime.Tenant {
  private readonly metered: boolean;
  constructor(ctx: DurableObjectState, env: BenchEnv) {
    const metered = env.BENCH_METER === '1';
    if (metered) meterStorage(ctx.storage);
    super(ctx, meteredEnv(env));
    this.metered = metered;
  }
  override async alarm(): Promise<void> {
    if (this.metered) countDelivery('alarms');
    return super.alarm();
  }
}

function workersAIOverHttp(url: string) {
  return {
    async run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, inputs }),
        signal: options?.signal,
      });
      if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
      return inputs.stream === true ? response.body : response.json();
    },
  };
}

/** The same answer without and behind sign-in: the sign-in scenario times one against the other. */
const signInProbe = new Hono<HttpEnv>()
  .get('/bench/open', (c) => c.text('ok'))
  .get('/bench/signed', signIn(), (c) => c.text('ok'))
  .get('/bench/d1', async (c) => {
    await c.env.DB.prepare('SELECT 1').first();
    return c.text('ok');
  })
  // The billable units counted since the last read (bench/meter.ts), and a fresh count.
  .get('/bench/meter', (c) => c.json(readMeter()));

export { Floor };
export const SandboxNetwork = runtime.SandboxNetwork;

export default {
  fetch(request, untouched, ctx) {
    const env = meteredEnv(untouched);
    const url = new URL(request.url);
    if (env !== untouched && url.pathname !== '/bench/meter') countRequest();
    if (url.pathname.startsWith('/floor/')) return env.FLOOR.get(env.FLOOR.idFromName(url.pathname)).fetch(request);
    if (url.pathname.startsWith('/bench/')) return signInProbe.fetch(request, env, ctx);
    return serveRuntime(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
