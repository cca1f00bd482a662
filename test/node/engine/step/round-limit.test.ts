/**
 * The round limit (KIND-7): `maxToolRounds` as a number (0 = return the calls unexecuted) or as a
 * function of the turn context; held calls survive restarts unexecuted and are answered with an
 * error tool message once a new user message arrives.
 */
import {
  definePrompt,
  defineTool,
  type MaxToolRounds,
  type Script,
  type ScriptedReply,
  type TurnContext,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { needsTurn } from '../../../../src/engine/conversation/index.js';
import { ROUND_LIMIT_MESSAGE } from '../../../../src/engine/step/index.js';
import {
  createHarness,
  type HarnessOptions,
  MemoryFileStore,
  MemoryThreadStore,
} from '../../../support/memory-store.js';

function counting() {
  const runs: string[] = [];
  const tool = defineTool({
    description: 'Record a label',
    args: z.object({ label: z.string() }),
    execute: async (_state, { label }) => {
      runs.push(label);
      return { status: 'success', result: label };
    },
  });
  return { runs, tool };
}

const call = (label: string, id?: string): ScriptedReply => ({
  toolCalls: [{ name: 'mark', arguments: { label }, ...(id ? { id } : {}) }],
});

function harness(maxToolRounds: MaxToolRounds) {
  const { runs, tool } = counting();
  const options = (script: Script, extra: HarnessOptions = {}) =>
    createHarness({ tools: { mark: tool }, prompt: { maxToolRounds }, script, ...extra });
  return { runs, options };
}

describe('KIND-7: maxToolRounds as a number', () => {
  it('KIND-7: at most N rounds run; the next step’s calls are returned unexecuted and stay in the log', async () => {
    const { runs, options } = harness(2);
    const h = options([call('a'), call('b'), call('c', 'held-c'), { text: 'never' }]);
    const outcome = await h.send('go');

    expect(outcome).toEqual({
      kind: 'done',
      reason: 'round_limit',
      pendingToolCalls: [{ id: 'held-c', type: 'function', function: { name: 'mark', arguments: '{"label":"c"}' } }],
    });
    expect(runs).toEqual(['a', 'b']);
    expect(h.requests).toHaveLength(3);
    const last = h.store.messages().at(-1);
    expect(last).toMatchObject({ role: 'assistant', metadata: { round_limit: true } });
    expect(last?.tool_calls?.map((c) => c.id)).toEqual(['held-c']);
    expect(h.byRole('tool').map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('KIND-7: maxToolRounds: 0 returns the model’s tool calls without executing any', async () => {
    const { runs, options } = harness(0);
    const h = options([
      {
        toolCalls: [
          { name: 'mark', arguments: { label: 'x' } },
          { name: 'mark', arguments: { label: 'y' } },
        ],
      },
    ]);
    const outcome = await h.send('go');

    expect(outcome.kind === 'done' && outcome.reason).toBe('round_limit');
    expect(outcome.kind === 'done' && outcome.reason === 'round_limit' && outcome.pendingToolCalls).toHaveLength(2);
    expect(runs).toEqual([]);
    expect(h.byRole('tool')).toEqual([]);
    expect(h.requests).toHaveLength(1);
    expect(h.frameTypes()).not.toContain('tool_started');
  });

  it('KIND-7: text answers use no round; a turn within its limit ends normally', async () => {
    const { runs, options } = harness(1);
    const h = options([call('a'), { text: 'finished' }]);
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['a']);
  });

  it('KIND-7: the limit is per turn: a new user message starts a new budget', async () => {
    const { runs, options } = harness(1);
    const h = options([call('a'), { text: 'first answer' }]);
    await h.send('one');
    expect(await h.send('two')).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['a', 'a']);
  });

  it('KIND-7: definePrompt refuses a negative or fractional maxToolRounds', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => definePrompt({ name: 'p', prompt: '', model: 'm', maxToolRounds: bad })).toThrow(/maxToolRounds/);
    }
    expect(definePrompt({ name: 'p', prompt: '', model: 'm' }).maxToolRounds).toBeUndefined();
  });
});

describe('KIND-7: maxToolRounds as a function of the turn context', () => {
  it('KIND-7: it is asked before each round with the turn context and stops the turn when it returns false', async () => {
    const seen: TurnContext[] = [];
    const { runs, options } = harness(async (turn) => {
      seen.push(structuredClone(turn));
      return !turn.toolCalls.some((c) => (c.arguments as { label: string }).label === 'stop');
    });
    const h = options([call('a', 'c1'), call('b', 'c2'), call('stop', 'c3'), { text: 'never' }], {
      info: { id: 'thread-7' },
    });
    const outcome = await h.send('go');

    expect(outcome.kind === 'done' && outcome.reason).toBe('round_limit');
    expect(runs).toEqual(['a', 'b']);
    expect(seen).toEqual([
      {
        threadId: 'thread-7',
        round: 0,
        stepCount: 1,
        toolCalls: [{ id: 'c1', name: 'mark', arguments: { label: 'a' } }],
      },
      {
        threadId: 'thread-7',
        round: 1,
        stepCount: 2,
        toolCalls: [{ id: 'c2', name: 'mark', arguments: { label: 'b' } }],
      },
      {
        threadId: 'thread-7',
        round: 2,
        stepCount: 3,
        toolCalls: [{ id: 'c3', name: 'mark', arguments: { label: 'stop' } }],
      },
    ]);
  });

  it('KIND-7: malformed arguments reach the function as their raw text; text steps never ask it', async () => {
    const seen: TurnContext[] = [];
    const { options } = harness((turn) => {
      seen.push(structuredClone(turn));
      return false;
    });
    const h = options([{ text: 'thinking' }]);
    await h.send('hi');
    expect(seen).toEqual([]);

    const raw = options([{ toolCalls: [{ name: 'mark', arguments: '{"label": ' }] }]);
    await raw.send('go');
    expect(seen[0]?.toolCalls[0]?.arguments).toBe('{"label": ');
  });

  it('KIND-7: a function that throws fails the turn and its step’s calls stay unexecuted', async () => {
    const { runs, options } = harness(() => {
      throw new Error('policy unavailable');
    });
    const h = options([call('a')]);
    const outcome = await h.send('go');
    expect(outcome).toEqual({ kind: 'failed', message: 'maxToolRounds of prompt "main" failed: policy unavailable' });
    expect(runs).toEqual([]);
    expect(h.store.messages().at(-1)).toMatchObject({ role: 'assistant', metadata: { round_limit: true } });
    expect(needsTurn(h.store.messages())).toBe(false);
  });
});

describe('KIND-7: calls held by the round limit', () => {
  it('KIND-7: a restart does not execute held calls: the log asks for no turn, and a run executes nothing', async () => {
    const store = new MemoryThreadStore({ agentId: 'test_agent' });
    const fileStore = new MemoryFileStore();
    const { runs, options } = harness(0);
    const first = options([call('a')], { store, fileStore });
    await first.send('go');
    expect(needsTurn(store.messages())).toBe(false);

    const restarted = options([call('a')], { store, fileStore });
    const outcome = await restarted.run();
    expect(outcome.kind === 'done' && outcome.reason).toBe('round_limit');
    expect(runs).toEqual([]);
    expect(restarted.requests).toEqual([]);
    expect(restarted.byRole('tool')).toEqual([]);
  });

  it('KIND-7: a new user message answers held calls with an error tool message, then the model is called', async () => {
    const { runs, options } = harness(1);
    const first = [call('a'), call('b', 'held-b')];
    // Plays `first` for the first user message and answers the second one in text.
    const h = options((request) => {
      if (request.messages.filter((m) => m.role === 'user').length > 1) return { text: 'understood' };
      return first[request.messages.filter((m) => m.role === 'assistant').length] ?? { text: 'never' };
    });
    await h.send('first');
    expect(runs).toEqual(['a']);
    expect(h.requests).toHaveLength(2);

    expect(await h.send('second')).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['a']);

    const heldResult = h.store.messages().find((m) => m.role === 'tool' && m.tool_call_id === 'held-b');
    expect(heldResult).toMatchObject({ tool_status: 'error', content: `Error: ${ROUND_LIMIT_MESSAGE}` });
    // The request is well-formed Chat Completions: the held calls' results follow their assistant
    // message, and the new user message comes after them.
    const sent = h.requests[2]?.messages ?? [];
    const heldAt = sent.findIndex((m) => m.role === 'assistant' && m.tool_calls?.[0]?.id === 'held-b');
    expect(sent.slice(heldAt + 1).map((m) => m.role)).toEqual(['tool', 'user']);
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'second' });
  });

  it('KIND-7: a queued user message also releases held calls when the thread next runs', async () => {
    const { runs, options } = harness(0);
    const h = options([call('a')]);
    await h.send('first');
    h.store.enqueue({ role: 'user', content: 'queued follow-up' });
    const outcome = await h.run();
    // The scripted model calls `mark` again for the new message, and the limit holds it again.
    expect(outcome.kind === 'done' && outcome.reason).toBe('round_limit');
    expect(runs).toEqual([]);
    expect(h.byRole('tool').map((m) => [m.tool_status, m.content])).toEqual([
      ['error', `Error: ${ROUND_LIMIT_MESSAGE}`],
    ]);
    expect(h.byRole('user').map((m) => m.content)).toEqual(['first', 'queued follow-up']);
    expect(h.requests).toHaveLength(2);
  });

  it('KIND-7: a silent user message does not release held calls', async () => {
    const { options } = harness(0);
    const h = options([call('a')]);
    await h.send('first');
    h.user('note to self', { silent: true });
    expect(needsTurn(h.store.messages())).toBe(false);
    const outcome = await h.run();
    expect(outcome.kind === 'done' && outcome.reason).toBe('round_limit');
    expect(h.byRole('tool')).toEqual([]);
  });
});
