/**
 * Running a suite (EVAL-1, EVAL-3, EVAL-7): a malformed case fails naming itself and the field while
 * the others run; a case past its time limit fails with "timed out after Ns" and its target is told
 * to stop the thread; no more cases run at once than asked.
 */
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../../evals/runner/run-suite.js';
import { fakeTarget, logOf, toolTurn } from './eval-fixtures.js';

const good = (name: string) => ({
  name,
  agent: 'assistant',
  messages: ['get_current_time'],
  assertions: [{ kind: 'tool_called', tool: 'get_current_time' }],
});

const answered = () =>
  fakeTarget(async () => ({
    log: logOf(toolTurn('t', 'get_current_time', {}, 'now', 'It is now.'), 120, 0.002),
    turnMs: [40],
  }));

describe('running a suite', () => {
  it('EVAL-7: each malformed case fails naming the case and the field; the well-formed ones run', async () => {
    const { target, ran } = answered();
    const cases = [
      good('fine before'),
      { name: 'no agent', messages: ['hi'], assertions: [] },
      { name: 'no messages', agent: 'assistant', messages: [], assertions: [] },
      {
        name: 'unknown kind',
        agent: 'assistant',
        messages: ['hi'],
        assertions: [
          { kind: 'contains', text: 'x' },
          { kind: 'equals', text: 'x' },
        ],
      },
      {
        name: 'bad regex',
        agent: 'assistant',
        messages: ['hi'],
        assertions: [{ kind: 'matches', pattern: '(unclosed' }],
      },
      {
        name: 'schema not an object',
        agent: 'assistant',
        messages: ['hi'],
        assertions: [{ kind: 'json_schema', schema: [] }],
      },
      { agent: 'assistant', messages: ['hi'], assertions: [] },
      'not a case',
      { ...good('fine before'), agent: 'workspace' },
      {
        name: 'bad fields',
        agent: 7,
        messages: ['', 'ok'],
        variables: { A: 1 },
        timeout: -1,
        assertions: [{ kind: 'tool_called', args: [] }],
      },
      good('fine after'),
    ];
    const results = await runSuite(cases, target, { concurrency: 3, timeoutSeconds: 5 });
    expect(ran.map((evalCase) => evalCase.name)).toEqual(expect.arrayContaining(['fine before', 'fine after']));
    expect(ran).toHaveLength(2);
    const byIndex = results.map((result) => [result.name, result.passed, result.failures]);
    expect(byIndex).toEqual([
      ['fine before', true, []],
      ['no agent', false, ['malformed case: agent: missing (the name of the agent that runs the thread)']],
      ['no messages', false, ['malformed case: messages: at least one user message']],
      [
        'unknown kind',
        false,
        [
          expect.stringMatching(
            /^malformed case: assertions\[1\]\.kind: unknown assertion kind "equals" \(one of contains, matches/,
          ),
        ],
      ],
      [
        'bad regex',
        false,
        [expect.stringMatching(/^malformed case: assertions\[0\]\.pattern: bad regular expression \(.*\)$/)],
      ],
      ['schema not an object', false, ['malformed case: assertions[0].schema: a JSON schema must be an object']],
      ['#7 (no name)', false, ['malformed case: name: must be a non-empty string']],
      ['#8 (no name)', false, ['malformed case: the case must be an object']],
      ['fine before', false, ['malformed case: name: another case of the suite has this name']],
      [
        'bad fields',
        false,
        [
          'malformed case: agent: must be the name of the agent that runs the thread',
          'malformed case: variables.A: must be a string',
          'malformed case: timeout: must be a positive number of seconds',
          'malformed case: messages[0]: must be a non-empty string',
          'malformed case: assertions[0].tool: must be a tool name',
          'malformed case: assertions[0].args: must be an object',
        ],
      ],
      ['fine after', true, []],
    ]);
    expect(results[0]).toMatchObject({ turnMs: [40], tokens: 120, costUsd: 0.002, threadId: 'thread-of-fine before' });
  });

  it('EVAL-3: a case past its time limit fails with "timed out after Ns" and its thread is stopped; the rest pass', async () => {
    const { target, stopped } = fakeTarget(
      (evalCase, signal) =>
        new Promise((resolve, reject) => {
          if (evalCase.name !== 'slow') {
            resolve({ log: logOf(toolTurn('t', 'get_current_time', {}, 'now', 'done')), turnMs: [1] });
            return;
          }
          // Never answers by itself: only the abort ends it, as the API target stops the thread and rejects.
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    );
    const slow = { ...good('slow'), timeout: 0.2 };
    const results = await runSuite([good('quick'), slow], target, { concurrency: 2, timeoutSeconds: 30 });
    expect(results.map((result) => [result.name, result.passed, result.failures])).toEqual([
      ['quick', true, []],
      ['slow', false, ['timed out after 0.2s']],
    ]);
    expect(stopped).toEqual(['slow']);
    expect(results[1]?.threadId).toBe('thread-of-slow');
  });

  it('EVAL-3: --timeout is the limit of a case that sets none', async () => {
    const { target, stopped } = fakeTarget(
      (_, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const [result] = await runSuite([good('waits')], target, { concurrency: 1, timeoutSeconds: 0.1 });
    expect(result?.failures).toEqual(['timed out after 0.1s']);
    expect(stopped).toEqual(['waits']);
  });

  it('EVAL-3: no more than `concurrency` cases run at once, and every case runs once', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { target, ran, mostAtOnce } = fakeTarget(async () => {
      await gate;
      return { log: logOf(toolTurn('t', 'get_current_time', {}, 'now', 'done')), turnMs: [1] };
    });
    const running = runSuite(
      Array.from({ length: 9 }, (_, index) => good(`case ${index}`)),
      target,
      { concurrency: 4, timeoutSeconds: 30 },
    );
    // Each worker claims its case and calls the target before its first await: all four are in.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toHaveLength(4);
    release();
    const results = await running;
    expect(mostAtOnce()).toBe(4);
    expect(ran.map((evalCase) => evalCase.name).sort()).toEqual(results.map((result) => result.name).sort());
    expect(results.every((result) => result.passed)).toBe(true);
  });

  it('EVAL-7: a case whose target throws fails with the reason; the others still run', async () => {
    const { target } = fakeTarget(async (evalCase) => {
      if (evalCase.name === 'refused') throw new Error('unknown_agent: no agent named nobody');
      return { log: logOf(toolTurn('t', 'get_current_time', {}, 'now', 'done')), turnMs: [1] };
    });
    const results = await runSuite([{ ...good('refused'), agent: 'nobody' }, good('fine')], target, {
      concurrency: 1,
      timeoutSeconds: 30,
    });
    expect(results.map((result) => [result.name, result.passed, result.failures])).toEqual([
      ['refused', false, ['unknown_agent: no agent named nobody']],
      ['fine', true, []],
    ]);
  });
});
