/**
 * The ThreadState members over the message log (TS-1 to TS-9, TS-13 to TS-17), through the engine's
 * loop with a scripted model: pages of the log, one message, changing and removing stored messages,
 * the activity log, queued tool calls and what a call sees of its execution.
 */
import {
  defineAgent,
  defineModel,
  definePrompt,
  defineTool,
  type ExecutionState,
  type ThreadState,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { needsTurn } from '../../../../src/engine/conversation/index.js';
import { pageOfMessages } from '../../../../src/engine/state/index.js';
import type { Message, ScriptedReply } from '../../../../src/spec/index.js';
import { FIXED_MESSAGE_FIELDS } from '../../../support/hostile-corpus.js';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';
import { storedMessage } from '../../../support/stored-message.js';

function message(seq: number, extra: Partial<Message> = {}): Message {
  return storedMessage(seq, { role: 'user', content: `text ${seq}`, ...extra });
}

/** A script answering each model request with the next reply, across turns. */
function sequence(replies: ScriptedReply[]): () => ScriptedReply {
  let next = 0;
  return () => replies[next++] ?? { text: 'no more replies' };
}

describe('TS-1: getMessages pages', () => {
  const log = [message(1), message(2, { silent: true }), message(3, { depth: 1 }), message(4), message(5)];
  const ids = (result: { messages: Message[] }) => result.messages.map((m) => m.id);

  it('TS-1: default 100, oldest first, silent messages left out, total and hasMore', () => {
    const page = pageOfMessages(log);
    expect(ids(page)).toEqual(['m1', 'm3', 'm4', 'm5']);
    expect(page).toMatchObject({ total: 4, hasMore: false });
  });

  it("TS-1: limit and offset page the chosen order; 'desc' returns newest first", () => {
    expect(pageOfMessages(log, { limit: 2 })).toMatchObject({ total: 4, hasMore: true });
    expect(ids(pageOfMessages(log, { limit: 2, offset: 2 }))).toEqual(['m4', 'm5']);
    expect(pageOfMessages(log, { limit: 2, offset: 2 }).hasMore).toBe(false);
    expect(ids(pageOfMessages(log, { order: 'desc', limit: 2 }))).toEqual(['m5', 'm4']);
    expect(ids(pageOfMessages(log, { order: 'desc', offset: 3 }))).toEqual(['m1']);
  });

  it('TS-1: includeSilent, maxDepth and the after cursor filter before paging', () => {
    expect(ids(pageOfMessages(log, { includeSilent: true }))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(ids(pageOfMessages(log, { maxDepth: 0 }))).toEqual(['m1', 'm4', 'm5']);
    expect(pageOfMessages(log, { after: 3 })).toMatchObject({ total: 2, hasMore: false });
  });

  it('TS-1: a limit, offset or order that is not one is refused', () => {
    expect(() => pageOfMessages(log, { limit: -1 })).toThrow(/limit/);
    expect(() => pageOfMessages(log, { offset: 1.5 })).toThrow(/offset/);
    expect(() => pageOfMessages(log, { order: 'newest' as 'asc' })).toThrow(/order/);
  });
});

describe('TS-2 to TS-6: reading and changing stored messages', () => {
  function thread() {
    const h = createHarness({
      tools: {
        note: defineTool({
          description: 'Writes a file and returns it as an attachment.',
          execute: async (state: ThreadState) => {
            const file = await state.writeFile('/notes/n.txt', 'hello');
            return { status: 'success' as const, result: 'noted', attachments: [file] };
          },
        }),
      },
      script: [{ toolCalls: [{ id: 'c1', name: 'note' }] }, { text: 'done' }],
    });
    return h;
  }

  it('TS-2: getMessage finds a message by id, or null', async () => {
    const h = thread();
    const user = h.user('hi');
    const state = h.state();
    expect(await state.getMessage(user.id)).toEqual(user);
    expect(await state.getMessage('nope')).toBeNull();
  });

  it('TS-3: updateMessage replaces content, merges metadata, and announces it; the log shows it', async () => {
    const h = thread();
    const user = h.user('hi', { metadata: { keep: 1, drop: 2 } });
    const state = h.state();
    const updated = await state.updateMessage(user.id, { content: 'hello', metadata: { drop: null, added: true } });
    expect(updated).toMatchObject({ id: user.id, role: 'user', content: 'hello', metadata: { keep: 1, added: true } });
    expect(h.store.messages()[0]).toEqual(updated);
    expect(h.frames.at(-1)).toEqual({ type: 'message_updated', message: updated });
  });

  it('TS-3: a change to the role, the id or the tool calls is refused and nothing changes', async () => {
    const h = thread();
    const user = h.user('hi');
    const state = h.state();
    for (const updates of FIXED_MESSAGE_FIELDS) {
      await expect(state.updateMessage(user.id, updates as never)).rejects.toThrow(/only content and metadata/);
    }
    await expect(state.updateMessage('nope', { content: 'x' })).rejects.toThrow(/no message nope/);
    expect(h.store.messages()).toEqual([user]);
    expect(h.frameTypes()).toEqual(['message']);
  });

  it('TS-4: deleting an assistant step removes its tool results and their attachments; false for an unknown id', async () => {
    const h = thread();
    await h.send('go');
    const step = h.byRole('assistant')[0] as Message;
    expect(await h.fileStore.head('notes/n.txt').catch(() => null)).not.toBeNull;
    const state = h.state();
    expect(await state.deleteMessage(step.id)).toBe(true);
    expect(h.byRole('tool')).toEqual([]);
    expect(h.byRole('assistant').map((m) => m.content)).toEqual(['done']);
    expect(await h.files.read('/notes/n.txt')).toBeNull();
    const deleted = h.frames.find((frame) => frame.type === 'message_deleted');
    expect(deleted).toMatchObject({ message_ids: [step.id, expect.any(String)] });
    expect(await state.deleteMessage(step.id)).toBe(false);
  });

  it('TS-5: a tool result on its own is refused: its call would be left unanswered', async () => {
    const h = thread();
    await h.send('go');
    const result = h.byRole('tool')[0] as Message;
    const before = [...h.store.messages()];
    await expect(h.state().deleteMessage(result.id)).rejects.toThrow(/tool result/);
    expect(h.store.messages()).toEqual(before);
  });

  it('TS-5: from a running call, the running turn is refused; an earlier turn is not', async () => {
    const outcomes: string[] = [];
    const h = createHarness({
      tools: {
        edit: defineTool({
          description: 'Edits the log.',
          args: z.object({ id: z.string() }),
          execute: async (state, args) => {
            const attempt = async (act: () => Promise<unknown>) =>
              act().then(
                () => 'done',
                (error: Error) => error.message,
              );
            const { messages } = await state.getMessages();
            const current = messages.at(-1) as Message;
            outcomes.push(await attempt(() => state.updateMessage(current.id, { content: 'x' })));
            outcomes.push(await attempt(() => state.deleteMessage(current.id)));
            outcomes.push(await attempt(() => state.updateMessage(args.id, { content: 'edited' })));
            return { status: 'success', result: 'ok' };
          },
        }),
      },
      script: sequence([
        { text: 'first' },
        { toolCalls: [{ id: 'e1', name: 'edit', arguments: { id: 'm-first' } }] },
        { text: 'ok' },
      ]),
    });
    h.user('one', { id: 'm-first' });
    await h.run();
    await h.send('two');
    expect(outcomes[0]).toMatch(/turn still running/);
    expect(outcomes[1]).toMatch(/turn still running|still waiting/);
    expect(outcomes[2]).toBe('done');
    expect(h.store.messages()[0]?.content).toBe('edited');
  });

  it('TS-6: getLogs reads model steps and calls from the log, in µs', async () => {
    const h = thread();
    await h.send('go');
    const logs = await h.state().getLogs();
    expect(logs.map((entry) => entry.type)).toEqual(['llm_request', 'tool_call', 'llm_request']);
    const step = h.byRole('assistant')[0] as Message;
    expect(logs[0]).toMatchObject({ id: step.id, data: { tool_calls: ['note'], side: 'a' } });
    expect(logs[1]).toMatchObject({ type: 'tool_call', parent_id: step.id, data: { name: 'note', status: 'success' } });
    expect(logs[0]?.created_at).toBe(step.created_at * 1000);
    expect((await h.state().getLogs({ order: 'desc', limit: 1 }))[0]?.type).toBe('llm_request');
  });
});

describe('TS-7 to TS-9: queueTool', () => {
  const lookup = defineTool({
    description: 'Looks a word up.',
    args: z.object({ word: z.string() }),
    execute: async (_state, args) => ({ status: 'success', result: `meaning of ${args.word}` }),
  });

  it('TS-7: a call queued during a turn runs at the start of the next step as a call the model sees', async () => {
    const h = createHarness({
      tools: {
        lookup,
        plan: defineTool({
          description: 'Queues a lookup.',
          execute: async (state: ThreadState) => {
            const answer = state.queueTool('lookup', { word: 'queue' });
            expect(answer).toBeUndefined();
            return { status: 'success' as const, result: 'planned' };
          },
        }),
      },
      // A list script answers by the count of assistant steps in the turn: the queued call's is one.
      script: [{ toolCalls: [{ id: 'p1', name: 'plan' }] }, { text: 'unused' }, { text: 'done' }],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const [planStep, queuedStep] = h.byRole('assistant');
    expect(planStep?.tool_calls?.[0]?.function.name).toBe('plan');
    expect(queuedStep?.tool_calls?.[0]?.function).toEqual({ name: 'lookup', arguments: '{"word":"queue"}' });
    const result = h.byRole('tool').find((m) => m.name === 'lookup');
    expect(result).toMatchObject({ tool_status: 'success', content: 'meaning of queue' });
    // The model's next request carried the queued call and its result.
    const sent = JSON.stringify(h.requests.at(-1)?.messages);
    expect(sent).toContain('meaning of queue');
    expect(h.requests).toHaveLength(2);
  });

  it('TS-7: a queued call passes the permission rules like a model call: a denied tool is refused, not run', async () => {
    let ran = false;
    const h = createHarness({
      tools: {
        secretive: defineTool({
          description: 'Must not run.',
          execute: async () => {
            ran = true;
            return { status: 'success' as const, result: 'ran' };
          },
        }),
        plan: defineTool({
          description: 'Queues the forbidden tool.',
          execute: async (state: ThreadState) => {
            state.queueTool('secretive', {});
            return { status: 'success' as const, result: 'planned' };
          },
        }),
      },
      permissions: [
        { permission: 'secretive', pattern: '*', action: 'deny' },
        { permission: '*', pattern: '*', action: 'allow' },
      ],
      script: [{ toolCalls: [{ id: 'p1', name: 'plan' }] }, { text: 'unused' }, { text: 'done' }],
    });
    await h.send('go');
    expect(ran).toBe(false);
    expect(h.byRole('tool').find((m) => m.name === 'secretive')?.tool_status).toBe('error');
  });

  it('TS-8: at rest a queued call wakes the thread, and the next turn starts with it', async () => {
    const h = createHarness({ tools: { lookup }, script: [{ text: 'unused' }, { text: 'answered' }] });
    h.state().queueTool('lookup', { word: 'rest' });
    expect(h.wakes).toBe(1);
    expect(h.store.hasQueued()).toBe(true);
    await h.run();
    expect(h.byRole('tool')[0]).toMatchObject({ name: 'lookup', content: 'meaning of rest' });
    expect(h.byRole('assistant').at(-1)?.content).toBe('answered');
  });

  it('TS-9: an unknown tool or args that are not an object throw at once; nothing is queued', () => {
    const h = createHarness({ tools: { lookup } });
    const state = h.state();
    expect(() => state.queueTool('nope', {})).toThrow(/unknown tool "nope"/);
    expect(() => state.queueTool('lookup', [] as never)).toThrow(/args must be an object/);
    expect(h.store.hasQueued()).toBe(false);
    expect(h.wakes).toBe(0);
  });
});

describe('TS-13 to TS-17: what a call sees of its execution', () => {
  function probeHarness(act?: (state: ThreadState) => void) {
    const seen: Array<Omit<ExecutionState, 'abortSignal' | 'forceTurn' | 'stop'>> = [];
    const probe = defineTool({
      description: 'Reports its execution.',
      execute: async (state) => {
        const { flowId, stepCount, sideAStepCount, sideBStepCount, promptPath, messageHistory } =
          state.execution as ExecutionState;
        act?.(state);
        const { stopped, stoppedBy } = state.execution as ExecutionState;
        seen.push({
          flowId,
          stepCount,
          sideAStepCount,
          sideBStepCount,
          promptPath,
          messageHistory,
          stopped,
          stoppedBy,
        } as never);
        return { status: 'success', result: 'ok' };
      },
    });
    return { seen, probe };
  }

  it('TS-13, TS-14, TS-17: one flowId per execution, its steps per side, the prompt path and the history', async () => {
    const { seen, probe } = probeHarness();
    const h = createHarness({
      tools: { probe },
      script: sequence([
        { toolCalls: [{ id: 'p1', name: 'probe' }] },
        { toolCalls: [{ id: 'p2', name: 'probe' }] },
        { text: 'done' },
        { toolCalls: [{ id: 'p3', name: 'probe' }] },
        { text: 'again' },
      ]),
    });
    await h.send('one');
    await h.send('two');
    const [a, b, c] = [seen[0], seen[1], seen[2]] as Array<ExecutionState>;
    expect(a?.flowId).toBe(b?.flowId);
    expect(c?.flowId).not.toBe(a?.flowId);
    expect([a?.stepCount, b?.stepCount, c?.stepCount]).toEqual([1, 2, 1]);
    expect(seen).toHaveLength(3);
    expect([b?.sideAStepCount, b?.sideBStepCount]).toEqual([2, 0]);
    expect(a?.promptPath).toEqual(['main']);
    expect(a?.messageHistory.map((m) => m.content)).toContain('one');
    expect(a?.stopped).toBe(false);
  });

  it('TS-15: stop() ends the execution after the running calls, as an answer would: no further model call', async () => {
    const { seen, probe } = probeHarness((state) => state.execution?.stop());
    const h = createHarness({
      tools: { probe },
      script: [
        {
          toolCalls: [
            { id: 'p1', name: 'probe' },
            { id: 'p2', name: 'probe' },
          ],
        },
        { text: 'never' },
      ],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'execution_stopped' });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ stopped: true, stoppedBy: 'a' });
    expect(h.requests).toHaveLength(1);
    // The turn is over although the log ends in a result: a marker says so, no new turn is asked for.
    expect(needsTurn(h.store.messages())).toBe(false);
  });

  it('TS-16: forceTurn on an agent with one model side throws a clear error', async () => {
    const errors: string[] = [];
    const { probe } = probeHarness((state) => {
      try {
        state.execution?.forceTurn('b');
      } catch (error) {
        errors.push((error as Error).message);
      }
    });
    const h = createHarness({
      tools: { probe },
      script: [{ toolCalls: [{ id: 'p1', name: 'probe' }] }, { text: 'ok' }],
    });
    await h.send('go');
    expect(errors).toEqual([expect.stringMatching(/forceTurn: agent "test_agent" has one model side/)]);
  });
});

describe('TS-12: setStatus', () => {
  it("TS-12: sets the status in the parent's registry; an empty one is refused; without a parent nothing happens", async () => {
    const sent: string[] = [];
    const child = createHarness({ info: { parentId: 'parent-1' } });
    child.deps.host.setStatus = async (status) => {
      sent.push(status);
    };
    await child.state().setStatus(' reviewing ');
    await expect(child.state().setStatus('  ')).rejects.toThrow(/must not be empty/);
    expect(sent).toEqual(['reviewing']);
    const orphan = createHarness();
    orphan.deps.host.setStatus = async (status) => {
      sent.push(status);
    };
    await orphan.state().setStatus('alone');
    expect(sent).toEqual(['reviewing']);
  });
});

describe('TS-16: forceTurn on a dual_ai agent', () => {
  it("TS-16: a side's tool gives the next side turn to its own side; the side steps are counted apart", async () => {
    const seen: Array<{ a: number; b: number }> = [];
    const force = defineTool({
      description: 'Keep the turn',
      execute: async (state) => {
        const run = state.execution as ExecutionState;
        run.forceTurn('a');
        seen.push({ a: run.sideAStepCount, b: run.sideBStepCount });
        return { status: 'success', result: 'kept' };
      },
    });
    let calls = 0;
    const sideA = (): ScriptedReply =>
      ++calls === 1 ? { toolCalls: [{ id: 'f1', name: 'force' }] } : { text: `A${calls}` };
    const h = createHarness({
      agent: 'pair',
      definitions: {
        tools: { force },
        models: [
          defineModel({ name: 'model_a', provider: 'scripted', script: sideA }),
          defineModel({ name: 'model_b', provider: 'scripted', script: () => ({ text: 'B' }) }),
        ],
        prompts: [
          definePrompt({ name: 'pa', prompt: 'A.', model: 'model_a', tools: ['force'] }),
          definePrompt({ name: 'pb', prompt: 'B.', model: 'model_b', tools: [] }),
        ],
        agents: [
          defineAgent({
            name: 'pair',
            type: 'dual_ai',
            maxSessionTurns: 2,
            sideA: { prompt: 'pa' },
            sideB: { prompt: 'pb' },
          }),
        ],
        permissions: ALLOW_EVERYTHING,
      },
    });
    await h.send('start');
    const markers = h.store
      .messages()
      .map((m) => m.metadata?.turn_end as { side: string; next: string | null } | undefined)
      .filter((end) => end !== undefined);
    // Side A's first turn names side A again, not side B.
    expect(markers[0]).toMatchObject({ side: 'a', next: 'a' });
    expect(h.byRole('assistant').some((m) => m.content === 'B')).toBe(false);
    expect(seen).toEqual([{ a: 1, b: 0 }]);
  });
});
