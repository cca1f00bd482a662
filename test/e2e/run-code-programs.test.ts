/**
 * run_code under a real `wrangler dev` with its DevTools inspector attached, as `npm run dev` runs it
 * (CODE-1): the configuration in which a program reading the clock in a hot loop aborted the whole
 * workerd process in most runs ("Missing deoptimization information for OptimizedJSFrame::Summarize",
 * then 503 for every request until a restart). The vitest pool runs workerd without an inspector, where
 * that abort never showed. The `coder` agent (test/e2e/run-code-app) offers run_code alone, so its
 * programs get no tools. The local model server scripts the model: a user message `RUN <code>` is
 * answered with a run_code call of that program, a tool result with `done`.
 */
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { CLOCK_LOOP_PROGRAM } from '../support/hostile-corpus.js';
import { ApiClient } from './client.js';

const KEY = 'e2e-key';
const RUN = 'RUN ';
/** A line long enough that only the program's own output could contain it. */
const LINE = 'x'.repeat(1900);

let model: OpenAIServer;
let dev: WranglerDev;
let api: ApiClient;

beforeAll(async () => {
  model = await startOpenAIServer({
    respond: (body) => {
      const last = body.messages?.at(-1);
      const content = typeof last?.content === 'string' ? last.content : '';
      if (last?.role === 'user' && content.startsWith(RUN)) {
        return { toolCalls: [{ name: 'run_code', arguments: JSON.stringify({ code: content.slice(RUN.length) }) }] };
      }
      return { text: last?.role === 'tool' ? 'done' : `echo: ${content}` };
    },
  });
  // A bundle built once: an edit of the sources while the test runs does not restart the Worker.
  dev = await startWranglerDev({
    config: 'test/e2e/run-code-app/wrangler.toml',
    snapshot: true,
    vars: { API_KEYS: KEY, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'x', MODEL: 'fake-model' },
  });
  api = new ApiClient(dev.url, KEY);
});

afterAll(async () => {
  await dev?.stop();
  await model?.close();
});

/** Polls the thread until its turn has ended; a request the runtime cannot answer fails the test. */
async function settled(id: string, timeoutMs = 60_000): Promise<Message[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await api.endedTurn(id)) return api.messages(id);
    if (Date.now() > deadline) throw new Error(`thread ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('run_code under wrangler dev', () => {
  it('CODE-1: a hot loop reading the clock, twenty times in a row, ends with an error every time; another thread answers after each', async () => {
    const bystander = (await api.createThread({ agent: 'coder', messages: [{ content: 'hello' }] })).id;
    await settled(bystander);
    for (let run = 1; run <= 20; run++) {
      const { id } = await api.createThread({
        agent: 'coder',
        messages: [{ content: `${RUN}${CLOCK_LOOP_PROGRAM}` }],
      });
      const log = await settled(id);
      const result = log.find((message) => message.role === 'tool' && message.name === 'run_code');
      expect(result?.tool_status, `run ${run}: ${result?.content}`).toBe('error');
      expect(result?.content).toMatch(/loop iterations and function calls|without pausing/);
      expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
      expect((await api.thread(bystander)).status).toBe('idle');
    }
    expect(dev.output()).not.toContain('V8 fatal error');
  }, 300_000);

  it('CODE-1: a program logging 5,000 lines of 1.9 KB with every console method ends, its output captured and capped', async () => {
    const code = `const line = 'x'.repeat(${LINE.length});\nfor (let i = 0; i < 5000; i++) { console.log(i, line); console.trace(line); console.dir(line); console.table([line]); }\nreturn 'logged';`;
    const { id } = await api.createThread({ agent: 'coder', messages: [{ content: `${RUN}${code}` }] });
    const log = await settled(id);
    const result = log.find((message) => message.role === 'tool' && message.name === 'run_code');
    expect(result).toMatchObject({ tool_status: 'success' });
    expect(result?.content).toMatch(/^logged[\s\S]*more log lines dropped\]$/);
    // Captured by the sandbox, none of it reached workerd's console (the process output, DevTools).
    expect(dev.output()).not.toContain(LINE);
  }, 120_000);
});
