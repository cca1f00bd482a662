/**
 * The agent loop's stop conditions and delivery (DEF-6, EXE-7, SUB-7 queue): side step limits, the
 * global ceiling, stop tools, and queued messages delivered between steps in arrival order.
 */
import { defineTool, type ScriptedRequest } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_STEPS_CEILING, needsTurn } from '../../../../src/engine/conversation/index.js';
import { createHarness } from '../../../support/memory-store.js';

const noop = defineTool({
  description: 'Does nothing.',
  execute: async () => ({ status: 'success', result: 'nothing done' }),
});

const finish = defineTool({
  description: 'Finishes the task with an answer.',
  args: z.object({ answer: z.string() }),
  execute: async (_state, { answer }) => ({ status: 'success', result: JSON.stringify({ answer }) }),
});

/** A model that never stops calling `noop`. */
const forever = () => ({ toolCalls: [{ name: 'noop' }] });

describe('EXE-7 / DEF-6: step limits', () => {
  it('DEF-6: side maxSteps stops a runaway turn with kind "limit" after exactly that many model steps', async () => {
    const h = createHarness({ tools: { noop }, side: { maxSteps: 2 }, script: forever });
    const outcome = await h.send('loop forever');

    expect(outcome.kind).toBe('limit');
    expect(outcome.kind === 'limit' && outcome.message).toContain('2');
    expect(h.requests).toHaveLength(2);
    expect(h.byRole('assistant')).toHaveLength(2);
    // The calls of the last allowed step still ran and were answered.
    expect(h.byRole('tool')).toHaveLength(2);
    expect(h.store.messages().at(-1)?.role).toBe('tool');
  });

  it('EXE-7: maxSteps counts per turn: a new user message starts a new budget', async () => {
    const h = createHarness({
      tools: { noop },
      side: { maxSteps: 2 },
      script: [{ toolCalls: [{ name: 'noop' }] }, { text: 'done' }],
    });
    expect(await h.send('first')).toEqual({ kind: 'done', reason: 'response' });
    expect(await h.send('second')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.byRole('assistant')).toHaveLength(4);
  });

  it(`EXE-7: without maxSteps the global ceiling (${MAX_STEPS_CEILING}) stops the loop`, async () => {
    const h = createHarness({ tools: { noop }, script: forever });
    const outcome = await h.send('loop forever');
    expect(outcome.kind).toBe('limit');
    expect(h.requests).toHaveLength(MAX_STEPS_CEILING);
  });

  it('EXE-7: a side maxSteps above the global ceiling is capped by it', async () => {
    const h = createHarness({ tools: { noop }, side: { maxSteps: MAX_STEPS_CEILING * 5 }, script: forever });
    const outcome = await h.send('loop forever');
    expect(outcome.kind).toBe('limit');
    expect(h.requests).toHaveLength(MAX_STEPS_CEILING);
  });

  it('DEF-6: defineAgent refuses a maxSteps that is not a positive integer', async () => {
    expect(() => createHarness({ side: { maxSteps: 0 } })).toThrow(/maxSteps/);
    expect(() => createHarness({ side: { maxSteps: 1.5 } })).toThrow(/maxSteps/);
  });

  it('EXE-7: the same tool call failing identically three times in a row stops the loop with an explanatory error', async () => {
    const failing = { toolCalls: [{ name: 'fail', arguments: { code: 7 } }] };
    const h = createHarness({
      tools: {
        fail: defineTool({
          description: 'Fail with the given code',
          args: z.object({ code: z.number() }),
          execute: async (_state, args) => ({ status: 'error', error: `code ${args.code}` }),
        }),
      },
      script: [failing, failing, failing, failing, { text: 'never' }],
    });
    const outcome = await h.send('go');
    expect(outcome).toMatchObject({ kind: 'limit' });
    expect(outcome.kind === 'limit' && outcome.message).toContain('tool "fail" failed 3 times in a row');
    expect(h.requests).toHaveLength(3);
  });

  it('EXE-7: failures that differ in arguments or error do not trip the breaker', async () => {
    const call = (code: number) => ({ toolCalls: [{ name: 'fail', arguments: { code } }] });
    const h = createHarness({
      tools: {
        fail: defineTool({
          description: 'Fail with the given code',
          args: z.object({ code: z.number() }),
          execute: async (_state, args) => ({ status: 'error', error: `code ${args.code}` }),
        }),
      },
      script: [call(1), call(1), call(2), call(2), { text: 'gave up' }],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests).toHaveLength(5);
  });
});

describe('DEF-6: stop conditions of a side', () => {
  it('DEF-6: the turn ends on a text answer (stopOnResponse defaults to true)', async () => {
    const h = createHarness({ script: [{ text: 'Hello there.' }, { text: 'never' }] });
    expect(h.agent.sideA.stopOnResponse).toBe(true);
    expect(await h.send('hi')).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests).toHaveLength(1);
    expect(h.store.messages().at(-1)).toMatchObject({ role: 'assistant', content: 'Hello there.', tool_calls: null });
  });

  it('DEF-6: stopTool ends the turn right after that tool ran, without another model step', async () => {
    const h = createHarness({
      tools: { noop, finish },
      side: { stopTool: 'finish' },
      script: [
        { toolCalls: [{ name: 'noop' }] },
        {
          toolCalls: [
            { id: 'n2', name: 'noop' },
            { id: 'f1', name: 'finish', arguments: { answer: '42' } },
          ],
        },
        { text: 'must not be reached' },
      ],
    });
    expect(await h.send('work')).toEqual({ kind: 'done', reason: 'stop_tool', answer: '{"answer":"42"}' });
    expect(h.requests).toHaveLength(2);
    // Every call of the stopping step ran, in order; the log ends with the stop tool's result.
    expect(h.byRole('tool').map((m) => [m.name, m.tool_status])).toEqual([
      ['noop', 'success'],
      ['noop', 'success'],
      ['finish', 'success'],
    ]);
    expect(h.byRole('tool').at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'f1', content: '{"answer":"42"}' });
    // A silent marker records that the turn is over: nothing runs again until a new message.
    expect(h.store.messages().at(-1)).toMatchObject({ role: 'system', silent: true });
    expect(needsTurn(h.store.messages())).toBe(false);
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests).toHaveLength(2);
  });

  it('DEF-6: an empty log is nothing to do', async () => {
    const h = createHarness();
    expect(await h.run()).toEqual({ kind: 'done', reason: 'nothing_to_do' });
    expect(h.requests).toEqual([]);
  });

  it('DEF-6: a log that ends with an answer needs no model step', async () => {
    const h = createHarness({ script: [{ text: 'answer' }] });
    await h.send('hi');
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(h.requests).toHaveLength(1);
  });
});

describe('SUB-7: queued messages are delivered between steps, in order', () => {
  it('SUB-7: messages a tool queues are delivered after the step, in arrival order, before the next model step', async () => {
    const notify = defineTool({
      description: 'Queues two follow-up messages.',
      execute: async (state) => {
        await state.queueMessage({ role: 'user', content: 'first queued' });
        await state.queueMessage({ role: 'user', content: 'second queued' });
        return { status: 'success', result: 'queued' };
      },
    });
    const h = createHarness({
      tools: { notify },
      script: ({ messages }: ScriptedRequest) =>
        messages.at(-1)?.content === 'second queued' ? { text: 'got both' } : { toolCalls: [{ name: 'notify' }] },
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });

    expect(h.wakes).toBe(2);
    expect(h.store.messages().map((m) => `${m.role}:${m.content ?? ''}`)).toEqual([
      'user:go',
      'assistant:',
      'tool:queued',
      'user:first queued',
      'user:second queued',
      'assistant:got both',
    ]);
    const second = h.requests[1]?.messages ?? [];
    expect(second.slice(-3).map((m) => `${m.role}:${m.content}`)).toEqual([
      'tool:queued',
      'user:first queued',
      'user:second queued',
    ]);
    // Each delivery is streamed.
    const delivered = h.frames.flatMap((frame) => (frame.type === 'message' ? [frame.message.content] : []));
    expect(delivered).toContain('first queued');
    expect(delivered.indexOf('first queued')).toBeLessThan(delivered.indexOf('second queued'));
  });

  it('SUB-7: messages queued on an idle thread are delivered in order and answered, keeping their ids', async () => {
    const h = createHarness({ script: [{ text: 'answer one' }] });
    await h.send('hello');
    h.store.enqueue({ id: 'queued-a', role: 'user', content: 'A' });
    h.store.enqueue({ id: 'queued-b', role: 'user', content: 'B', metadata: { from: 'child' } });
    h.store.enqueue({ id: 'queued-c', role: 'user', content: 'C' });

    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    const log = h.store.messages();
    expect(log.slice(2, 5).map((m) => [m.id, m.content])).toEqual([
      ['queued-a', 'A'],
      ['queued-b', 'B'],
      ['queued-c', 'C'],
    ]);
    expect(log[3]?.metadata).toEqual({ from: 'child' });
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'answer one' });
    expect(h.store.hasQueued()).toBe(false);
  });

  it('SUB-7: a message queued while the model is thinking waits until the step and its tool calls are done', async () => {
    let step = 0;
    const h = createHarness({
      tools: { noop },
      script: ({ messages }: ScriptedRequest) => {
        step++;
        if (step === 1) {
          h.store.enqueue({ role: 'user', content: 'arrived mid-step' });
          return { toolCalls: [{ id: 'n1', name: 'noop' }] };
        }
        return { text: `saw: ${messages.at(-1)?.content}` };
      },
    });
    await h.send('go');
    expect(h.store.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(h.store.messages().at(-1)?.content).toBe('saw: arrived mid-step');
  });

  it('SUB-7: a silent queued message is logged but neither sent to the model nor answered', async () => {
    const h = createHarness({ script: [{ text: 'answer' }] });
    await h.send('hello');
    h.store.enqueue({ role: 'user', content: 'note to self', silent: true });
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(h.store.messages().at(-1)).toMatchObject({ content: 'note to self', silent: true });
    expect(h.requests).toHaveLength(1);
  });
});

describe('THR-4: model failures end the turn cleanly', () => {
  it('THR-4: a provider error ends the turn as failed with a scrubbed message and persists nothing', async () => {
    const h = createHarness({
      provider: () => ({
        complete: async () => {
          throw new Error('upstream 500 with key sk-hidden');
        },
      }),
      scrub: (text) => text.replaceAll('sk-hidden', '[secret]'),
    });
    const outcome = await h.send('hi');
    expect(outcome).toEqual({ kind: 'failed', message: 'upstream 500 with key [secret]' });
    expect(h.store.messages().map((m) => m.role)).toEqual(['user']);
  });

  it('THR-4: an assistant step with text and tool calls keeps both; a calls-only step has null content', async () => {
    const h = createHarness({
      tools: { noop },
      script: [
        { text: 'Let me check.', toolCalls: [{ id: 'a', name: 'noop' }] },
        { toolCalls: [{ id: 'b', name: 'noop' }] },
        { text: 'Done.' },
      ],
    });
    await h.send('go');
    const assistants = h.byRole('assistant');
    expect(assistants.map((m) => [m.content, m.tool_calls?.map((c) => c.id) ?? null])).toEqual([
      ['Let me check.', ['a']],
      [null, ['b']],
      ['Done.', null],
    ]);
    expect(assistants[0]?.metadata).toMatchObject({ model: 'scripted', finish_reason: 'tool_calls' });
  });
});
