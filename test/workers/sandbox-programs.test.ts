/**
 * Programs that never finish on their own, through the layer a model reaches (CODE-1, EXE-5): the
 * scripted model calls `run_code` over the HTTP API with each program of the hostile corpus, and
 * the call must end with an error result within the run's limits while another thread keeps
 * answering. Locally workerd runs every isolate on one thread and cannot preempt one: a program the
 * guard did not stop would hold every thread of the process, so the bystander's GET, sent while the
 * program runs, answers only once it has ended. Deadlines here are generous limits, not measurements.
 */
import type { Message } from '@standardagents/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { CLOCK_LOOP_PROGRAM, RUNAWAY_PROGRAMS } from '../support/hostile-corpus.js';

/** Runs the longest program: 5 s without a pause, then the error result and the next step. */
const PROGRAM_DEADLINE_MS = 60_000;

function runCodeResult(log: readonly Message[]): Message | undefined {
  return log.find((message) => message.role === 'tool' && message.name === 'run_code' && message.depth === 0);
}

/** A thread whose model calls run_code with `code`, then answers `done`. */
function runCodeThread(code: string): Promise<string> {
  return createThread({
    agent: 'sandbox',
    messages: [{ content: directive([{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'done' }]) }],
  });
}

let bystander: string;

beforeAll(async () => {
  bystander = await createThread({ agent: 'sandbox', messages: [{ content: 'hello' }] });
  await settled(bystander);
});

/** Runs `code` through run_code; the bystander is asked while it runs and after. Returns the result. */
async function runAway(code: string): Promise<Message | undefined> {
  const id = await runCodeThread(code);
  const meanwhile = api(`/api/threads/${bystander}`);
  const log = await settled(id);
  expect((await meanwhile).status).toBe(200);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  expect((await api(`/api/threads/${bystander}`)).status).toBe(200);
  return runCodeResult(log);
}

describe('run_code: programs that never finish on their own end with an error, and the runtime keeps answering', () => {
  for (const { label, code, error } of RUNAWAY_PROGRAMS) {
    it(
      `CODE-1: ${label}`,
      async () => {
        const result = await runAway(code);
        expect(result?.tool_status, String(result?.content)).toBe('error');
        expect(result?.content).toMatch(error);
      },
      PROGRAM_DEADLINE_MS,
    );
  }

  it('CODE-1: a hot loop reading the clock, twenty times in a row, ends with an error every time', async () => {
    for (let run = 1; run <= 20; run++) {
      const result = await runAway(CLOCK_LOOP_PROGRAM);
      expect(result?.tool_status, `run ${run}: ${result?.content}`).toBe('error');
    }
  }, 240_000);

  it(
    'EXE-5: POST /stop of a program that sorts without end, pausing between sorts, is answered and ends it',
    async () => {
      // Between its sorts the program pauses, so the thread is served and the stop reaches the run;
      // left alone it would sort until the run's time limit.
      const id = await runCodeThread(
        'await tools.sb_tick({});\nconst a = new Float64Array(2e5).map(Math.random);\nfor (;;) { a.sort(); await new Promise((resolve) => setTimeout(resolve, 0)); }',
      );
      await until(
        () => messages(id, '&depth=1'),
        (log) => log.some((message) => message.role === 'tool' && message.name === 'sb_tick'),
      );
      expect((await api(`/api/threads/${id}/stop`, { method: 'POST' })).status).toBe(200);
      const log = await until(
        () => messages(id),
        (entries) => runCodeResult(entries) !== undefined,
      );
      expect(runCodeResult(log)).toMatchObject({ tool_status: 'error' });
      await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive([{ text: 'again' }]) } });
      expect((await settled(id)).at(-1)).toMatchObject({ role: 'assistant', content: 'again' });
      expect((await api(`/api/threads/${bystander}`)).status).toBe(200);
    },
    PROGRAM_DEADLINE_MS,
  );
});
