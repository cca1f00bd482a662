/**
 * What the model is sent (src/engine/request/context.ts, DEF-6 includeChat / includePastTools): observed as
 * the requests the scripted model receives during real turns.
 */
import {
  defineTool,
  type Message,
  type ModelMessage,
  type PromptDefinition,
  type ScriptedRequest,
  type ToolCall,
} from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { buildModelMessages, turnStartIndex } from '../../../../src/engine/request/index.js';
import { createHarness, type Harness, type HarnessOptions } from '../../../support/memory-store.js';
import { storedMessage } from '../../../support/stored-message.js';

const lookup = defineTool({
  description: 'Looks something up.',
  execute: async () => ({ status: 'success', result: 'looked up' }),
});

function call(id: string): ToolCall {
  return { id, type: 'function', function: { name: 'lookup', arguments: '{}' } };
}

/** A compact view of a request: `role:content`, with tool calls and results by id. */
function view(messages: readonly ModelMessage[]): string[] {
  return messages.map((m) => {
    if (m.role === 'tool') return `tool(${m.tool_call_id}):${m.content}`;
    if (m.role === 'assistant' && m.tool_calls)
      return `assistant[${m.tool_calls.map((c) => c.id).join(',')}]:${m.content}`;
    return `${m.role}:${m.content}`;
  });
}

/** Chat Completions protocol: every tool message answers a call of an assistant message before it. */
function expectWellFormed(messages: readonly ModelMessage[]) {
  const called = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) called.add(c.id);
    if (m.role === 'tool') expect(called.has(m.tool_call_id), `orphan tool result ${m.tool_call_id}`).toBe(true);
  }
}

/** An earlier turn that used tools: q1 → text + call t0 → result → call t1 → result → answer1. */
function seedEarlierTurn(h: Harness) {
  h.store.append({ role: 'user', content: 'q1' });
  h.store.append({ role: 'assistant', content: 'Let me look.', tool_calls: [call('t0')] });
  h.store.append({ role: 'tool', content: 'r0', name: 'lookup', tool_call_id: 't0', tool_status: 'success' });
  h.store.append({ role: 'assistant', content: null, tool_calls: [call('t1')] });
  h.store.append({ role: 'tool', content: 'r1', name: 'lookup', tool_call_id: 't1', tool_status: 'success' });
  h.store.append({ role: 'assistant', content: 'answer1' });
}

function harness(options: HarnessOptions = {}) {
  return createHarness({ tools: { lookup }, ...options });
}

describe('DEF-6: includeChat', () => {
  it('DEF-6: by default the whole conversation is sent after the system prompt', async () => {
    const h = harness({ script: [{ text: 'answer2' }] });
    seedEarlierTurn(h);
    await h.send('q2');
    expect(view(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:q1',
      'assistant[t0]:Let me look.',
      'tool(t0):r0',
      'assistant[t1]:null',
      'tool(t1):r1',
      'assistant:answer1',
      'user:q2',
    ]);
  });

  it('DEF-6: includeChat false sends only the current turn', async () => {
    const h = harness({
      prompt: { includeChat: false },
      script: [{ toolCalls: [{ id: 'n1', name: 'lookup' }] }, { text: 'answer2' }],
    });
    seedEarlierTurn(h);
    await h.send('q2');
    expect(view(h.requests[0]?.messages ?? [])).toEqual(['system:You are a test agent.', 'user:q2']);
    // Within the turn, its own steps are sent.
    expect(view(h.requests[1]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:q2',
      'assistant[n1]:null',
      'tool(n1):looked up',
    ]);
  });

  it('DEF-6: an empty system prompt sends no system message', async () => {
    const h = harness({ prompt: { prompt: '   ' }, script: [{ text: 'ok' }] });
    await h.send('hi');
    expect(view(h.requests[0]?.messages ?? [])).toEqual(['user:hi']);
  });
});

describe('DEF-6: includePastTools', () => {
  it('DEF-6: includePastTools false drops earlier tool calls and results but keeps their text', async () => {
    const h = harness({
      prompt: { includePastTools: false },
      script: [{ toolCalls: [{ id: 'n1', name: 'lookup' }] }, { text: 'answer2' }],
    });
    seedEarlierTurn(h);
    await h.send('q2');
    expect(view(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:q1',
      'assistant:Let me look.',
      'assistant:answer1',
      'user:q2',
    ]);
    // The current turn's own tool round trip is still sent.
    expect(view(h.requests[1]?.messages ?? []).slice(-3)).toEqual([
      'user:q2',
      'assistant[n1]:null',
      'tool(n1):looked up',
    ]);
  });
});

describe('context: messages that land between a call and its result', () => {
  function interjecting(options: HarnessOptions = {}) {
    const interject = defineTool({
      description: 'Injects a user message while it runs.',
      execute: async (state) => {
        await state.injectMessage({ role: 'user', content: 'interjection' });
        return { status: 'success', result: 'r1' };
      },
    });
    return createHarness({
      tools: { interject, lookup },
      script: ({ messages }: ScriptedRequest) =>
        messages.some((m) => m.role === 'tool')
          ? { text: 'answer' }
          : {
              toolCalls: [
                { id: 'c1', name: 'interject' },
                { id: 'c2', name: 'lookup' },
              ],
            },
      ...options,
    });
  }

  it('context: a user message appended between a tool call and its result is sent after the results', async () => {
    const h = interjecting();
    await h.send('q');
    // In the log the interjection sits between the call and the results...
    expect(h.store.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'tool', 'tool', 'assistant']);
    // ...but the model receives the results right after their call.
    const second = h.requests[1]?.messages ?? [];
    expect(view(second)).toEqual([
      'system:You are a test agent.',
      'user:q',
      'assistant[c1,c2]:null',
      'tool(c1):r1',
      'tool(c2):looked up',
      'user:interjection',
    ]);
    expectWellFormed(second);
  });

  it('context: with includePastTools false, a call and its result are never split by an interjection', async () => {
    const h = interjecting({ prompt: { includePastTools: false } });
    await h.send('q');
    const second = h.requests[1]?.messages ?? [];
    expect(view(second)).toContain('user:interjection');
    expectWellFormed(second);
  });

  it('context: with includeChat false, a call and its result are never split by an interjection', async () => {
    const h = interjecting({ prompt: { includeChat: false } });
    await h.send('q');
    const second = h.requests[1]?.messages ?? [];
    expect(view(second)).toContain('user:interjection');
    expectWellFormed(second);
  });
});

describe('context: messages the model never sees', () => {
  it('context: silent messages are kept in the log but not sent', async () => {
    const h = harness({ script: [{ text: 'ok' }] });
    h.store.append({ role: 'user', content: 'q1' });
    h.store.append({ role: 'assistant', content: 'a1' });
    h.store.append({ role: 'user', content: 'hidden user note', silent: true });
    h.store.append({ role: 'assistant', content: 'hidden assistant note', silent: true });
    await h.send('q2');
    expect(view(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:q1',
      'assistant:a1',
      'user:q2',
    ]);
    expect(h.store.messages().filter((m) => m.silent)).toHaveLength(2);
  });

  it('context: a silent message injected by a tool is not sent either', async () => {
    const note = defineTool({
      description: 'Leaves a silent note.',
      execute: async (state) => {
        await state.injectMessage({ role: 'system', content: 'psst-hidden', silent: true });
        return { status: 'success', result: 'noted' };
      },
    });
    const h = createHarness({ tools: { note }, script: [{ toolCalls: [{ id: 'n', name: 'note' }] }, { text: 'ok' }] });
    await h.send('q');
    expect(JSON.stringify(h.requests)).not.toContain('psst-hidden');
    expect(h.store.messages().some((m) => m.content === 'psst-hidden')).toBe(true);
  });

  it('SUB-1: messages of a sub-prompt (depth > 0) are not sent to the parent model', async () => {
    const h = harness({ script: [{ text: 'ok' }] });
    h.store.append({ role: 'user', content: 'q1' });
    h.store.append({ role: 'user', content: 'sub-prompt input', depth: 1, parent_id: 'x' });
    h.store.append({ role: 'assistant', content: 'sub-prompt output', depth: 1, parent_id: 'x' });
    h.store.append({ role: 'assistant', content: 'a1' });
    await h.send('q2');
    expect(view(h.requests[0]?.messages ?? [])).toEqual([
      'system:You are a test agent.',
      'user:q1',
      'assistant:a1',
      'user:q2',
    ]);
  });
});

describe('context: a long thread step by step', () => {
  /** Turns with tool rounds, a message landing between a call and its result, silent and nested ones. */
  function* conversation(): Generator<Partial<Message> & Pick<Message, 'role'>> {
    for (let turn = 0; turn < 6; turn++) {
      yield { role: 'user', content: `q${turn}` };
      for (let round = 0; round < 3; round++) {
        const id = `c${turn}_${round}`;
        yield { role: 'assistant', content: round === 0 ? 'looking' : null, tool_calls: [call(id), call(`${id}b`)] };
        yield { role: 'tool', content: `r${id}`, tool_call_id: id, tool_status: 'success' };
        if (turn % 2 === 1 && round === 1) yield { role: 'user', content: `meanwhile ${turn}` };
        if (round === 2) yield { role: 'system', content: 'quiet', silent: true };
        if (turn === 4) yield { role: 'assistant', content: 'nested', depth: 1 };
        yield { role: 'tool', content: `r${id}b`, tool_call_id: `${id}b`, tool_status: 'success' };
      }
      yield { role: 'assistant', content: `answer${turn}` };
    }
  }

  it('context: each step, the remembered past turns give exactly what a fresh read of the log gives', () => {
    for (const includePastTools of [false, true]) {
      const prompt = { prompt: 'sys', includeChat: true, includePastTools } as PromptDefinition;
      const log: Message[] = [];
      let seq = 0;
      for (const fields of conversation()) {
        log.push(storedMessage(++seq, fields));
        const stepwise = buildModelMessages(prompt, log);
        expect(stepwise).toEqual(buildModelMessages(prompt, [...log]));
        expectWellFormed(stepwise);
        expect(turnStartIndex(log)).toBe(turnStartIndex([...log]));
      }
    }
  });
});
