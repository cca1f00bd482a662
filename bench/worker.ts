/**
 * The benchmark Worker: the runtime serving agents whose only tool does nothing, so a tool round
 * costs exactly the runtime's own work, next to the Floor object (bench/floor.ts) that measures the
 * least a round can cost. `/floor/*` goes to a Floor object, everything else to the runtime.
 *
 * Two agents differ only in what they send the model: `bench` sends the whole conversation (the
 * default), `bench-turn` only the current turn, so the history benchmark can tell the cost of a
 * longer request body from the cost of a longer log.
 */
import { createRuntime, defineAgent, defineModel, definePrompt, defineTool, type RuntimeEnv } from '../src/index.js';
import { Floor } from './floor.js';

interface BenchEnv extends RuntimeEnv {
  FLOOR: DurableObjectNamespace<Floor>;
}

const noop = defineTool({
  description: 'Does nothing',
  execute: async () => ({ status: 'success', result: 'ok' }),
});

const prompt = (name: string, includeChat: boolean) =>
  definePrompt({ name, prompt: 'Call noop until told otherwise.', model: 'bench', tools: ['noop'], includeChat });

const runtime = createRuntime({
  tools: { noop },
  models: [defineModel({ name: 'bench', provider: 'openai' })],
  prompts: [prompt('bench', true), prompt('bench-turn', false)],
  agents: [
    defineAgent({ name: 'bench', sideA: { prompt: 'bench', maxSteps: 100 } }),
    defineAgent({ name: 'bench-turn', sideA: { prompt: 'bench-turn', maxSteps: 100 } }),
  ],
  // Each round passes the permission check like any call.
  permissions: [{ permission: 'noop', action: 'allow' }],
});

const serveRuntime = runtime.worker.fetch;
if (!serveRuntime) throw new Error('the runtime Worker has no fetch handler');

export const Thread = runtime.Thread;
export { Floor };

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/floor/')) return env.FLOOR.get(env.FLOOR.idFromName(url.pathname)).fetch(request);
    return serveRuntime(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
