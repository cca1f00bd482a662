/**
 * The tool executor seen from the log (EXE-1, EXE-3, EXE-4, EXE-8, DEF-3): whatever a call does, it
 * ends as one persisted tool message with a precise error or an output envelope, and the loop goes on
 * to the model's next step.
 */
import { defineTool, type Message, type ThreadState, type ToolResult } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from '../../../support/memory-store.js';

function counterTool() {
  const calls: unknown[] = [];
  const tool = defineTool({
    description: 'Registers a user profile.',
    args: z.object({
      user: z.object({ name: z.string(), age: z.number().int() }),
      tags: z.array(z.string()).default([]),
    }),
    execute: async (_state, args) => {
      calls.push(args);
      return { status: 'success', result: `registered ${args.user.name}` };
    },
  });
  return { tool, calls };
}

const echo = defineTool({
  description: 'Echoes its text.',
  args: z.object({ text: z.string() }),
  execute: async (_state, args) => ({ status: 'success', result: args.text }),
});

function toolMessages(log: readonly Message[]): Message[] {
  return log.filter((message) => message.role === 'tool');
}

function expectRecovered(log: readonly Message[]) {
  expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(log[3]?.content).toBe('Corrected.');
  expect(log[3]?.tool_calls).toBeNull();
}

describe('EXE-1: bad calls become error tool messages and the model gets to correct itself', () => {
  it('EXE-1: a schema violation names the nested field path, the body never runs, and the loop continues', async () => {
    const { tool, calls } = counterTool();
    const h = createHarness({
      tools: { register_user: tool },
      script: [
        { toolCalls: [{ id: 'c1', name: 'register_user', arguments: { user: { name: 'Ada', age: 'old' } } }] },
        { text: 'Corrected.' },
      ],
    });
    const outcome = await h.send('register Ada');

    expect(outcome).toEqual({ kind: 'done', reason: 'response' });
    expect(calls).toEqual([]);
    const log = h.store.messages();
    expectRecovered(log);
    const [result] = toolMessages(log);
    expect(result?.tool_call_id).toBe('c1');
    expect(result?.name).toBe('register_user');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('Invalid arguments for tool "register_user"');
    expect(result?.content).toContain('user.age');
    expect(result?.envelope?.type).toBe('error');
    // No tool_started frame: the call never passed validation.
    expect(h.frames.some((frame) => frame.type === 'tool_started')).toBe(false);
    // The model saw the error on its next step.
    const second = h.requests[1]?.messages.at(-1);
    expect(second).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(String(second?.content)).toContain('user.age');
  });

  it('EXE-1: a missing required field and an unexpected type are each reported with their path', async () => {
    const { tool } = counterTool();
    const h = createHarness({
      tools: { register_user: tool },
      script: [
        { toolCalls: [{ name: 'register_user', arguments: { user: { age: 3 }, tags: [1] } }] },
        { text: 'Corrected.' },
      ],
    });
    await h.send('go');
    const content = toolMessages(h.store.messages())[0]?.content ?? '';
    expect(content).toContain('user.name');
    expect(content).toContain('tags.0');
  });

  it('EXE-1: an unknown tool name becomes an error tool message listing the known tools and the loop continues', async () => {
    const { tool } = counterTool();
    const h = createHarness({
      tools: { register_user: tool, echo },
      script: [{ toolCalls: [{ id: 'c1', name: 'delete_everything', arguments: {} }] }, { text: 'Corrected.' }],
    });
    const outcome = await h.send('go');

    expect(outcome).toEqual({ kind: 'done', reason: 'response' });
    const log = h.store.messages();
    expectRecovered(log);
    const [result] = toolMessages(log);
    expect(result?.tool_status).toBe('error');
    expect(result?.name).toBe('delete_everything');
    expect(result?.content).toContain('Unknown tool "delete_everything"');
    expect(result?.content).toContain('register_user');
    expect(result?.content).toContain('echo');
  });

  it('EXE-1: malformed JSON arguments become an error tool message and the loop continues', async () => {
    const h = createHarness({
      tools: { echo },
      script: [
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: '{"text": "unterminated' }] },
        { text: 'Corrected.' },
      ],
    });
    const outcome = await h.send('go');

    expect(outcome).toEqual({ kind: 'done', reason: 'response' });
    const log = h.store.messages();
    expectRecovered(log);
    const [result] = toolMessages(log);
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('not valid JSON');
    expect(result?.content).toContain('"echo"');
  });

  it('EXE-1: JSON that is not an object is a schema violation, not a crash', async () => {
    const h = createHarness({
      tools: { echo },
      script: [{ toolCalls: [{ name: 'echo', arguments: '[1,2]' }] }, { text: 'Corrected.' }],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const [result] = toolMessages(h.store.messages());
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('Invalid arguments for tool "echo"');
  });

  it('EXE-1: three bad calls in one step each get their own error and a good call in between still runs', async () => {
    const h = createHarness({
      tools: { echo },
      script: [
        {
          toolCalls: [
            { id: 'a', name: 'nope', arguments: {} },
            { id: 'b', name: 'echo', arguments: '{' },
            { id: 'c', name: 'echo', arguments: { text: 'fine' } },
            { id: 'd', name: 'echo', arguments: { text: 42 } },
          ],
        },
        { text: 'Corrected.' },
      ],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const results = toolMessages(h.store.messages());
    expect(results.map((m) => [m.tool_call_id, m.tool_status])).toEqual([
      ['a', 'error'],
      ['b', 'error'],
      ['c', 'success'],
      ['d', 'error'],
    ]);
    expect(results[2]?.content).toBe('fine');
    expect(results[3]?.content).toContain('text');
  });
});

describe('EXE-3: failures never halt the thread', () => {
  it('EXE-3: a tool that throws becomes an error tool message; the stack is kept in metadata, not in content', async () => {
    const explode = defineTool({
      description: 'Explodes.',
      execute: async (): Promise<ToolResult> => {
        throw new Error('the flux capacitor is empty');
      },
    });
    const h = createHarness({
      tools: { explode },
      script: [{ toolCalls: [{ id: 'c1', name: 'explode' }] }, { text: 'Corrected.' }],
    });
    const outcome = await h.send('go');

    expect(outcome).toEqual({ kind: 'done', reason: 'response' });
    const log = h.store.messages();
    expectRecovered(log);
    const [result] = toolMessages(log);
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('the flux capacitor is empty');
    expect(result?.content).not.toMatch(/\n\s+at /);
    const stack = result?.metadata?.stack;
    expect(typeof stack).toBe('string');
    expect(stack).toContain('the flux capacitor is empty');
    expect(stack).toMatch(/\n\s+at /);
    // The model never sees the stack either.
    expect(JSON.stringify(h.requests[1]?.messages)).not.toMatch(/\\n\s+at /);
  });

  it('EXE-3: a tool that throws a non-Error value still becomes an error tool message', async () => {
    const weird = defineTool({
      description: 'Throws a string.',
      execute: async (): Promise<ToolResult> => {
        throw 'plain string failure';
      },
    });
    const h = createHarness({
      tools: { weird },
      script: [{ toolCalls: [{ name: 'weird' }] }, { text: 'Corrected.' }],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const [result] = toolMessages(h.store.messages());
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('plain string failure');
  });

  it('EXE-3: a tool returning something other than a ToolResult becomes an error tool message', async () => {
    const sloppy = defineTool({
      description: 'Returns a bare string.',
      execute: (async () => 'forty-two') as unknown as () => Promise<ToolResult>,
    });
    const empty = defineTool({
      description: 'Returns nothing.',
      execute: (async () => undefined) as unknown as () => Promise<ToolResult>,
    });
    const h = createHarness({
      tools: { sloppy, empty },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'sloppy' },
            { id: 'c2', name: 'empty' },
          ],
        },
        { text: 'Corrected.' },
      ],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    const results = toolMessages(h.store.messages());
    expect(results.map((m) => m.tool_status)).toEqual(['error', 'error']);
    expect(results[0]?.content).toContain('returned an invalid result');
    expect(results[0]?.content).toContain('"sloppy"');
    expect(results[1]?.content).toContain('"empty"');
  });

  it('EXE-3: a ToolResult whose result is not a string never halts the turn (runtime scrubber in place)', async () => {
    const objectResult = defineTool({
      description: 'Returns an object instead of a string.',
      execute: (async () => ({ status: 'success', result: { answer: 42 } })) as unknown as () => Promise<ToolResult>,
    });
    const h = createHarness({
      tools: { object_result: objectResult },
      // The Durable Object's scrubber works on strings, like this one.
      scrub: (text) => text.split('sk-secret').join('[secret]'),
      script: [{ toolCalls: [{ id: 'c1', name: 'object_result' }] }, { text: 'Corrected.' }],
    });
    const outcome = await h.send('go').catch((error: Error) => ({ kind: 'threw', message: error.message }));

    expect(outcome).toEqual({ kind: 'done', reason: 'response' });
    const [result] = toolMessages(h.store.messages());
    expect(result?.tool_call_id).toBe('c1');
    expect(typeof result?.content).toBe('string');
    expect(result?.content).not.toContain('[object Object]');
  });

  it('EXE-3: a call denied by a guard becomes an error tool message and its body never runs', async () => {
    const ran: string[] = [];
    const remove = defineTool({
      description: 'Deletes a file.',
      args: z.object({ path: z.string() }),
      execute: async (_state, { path }) => {
        ran.push(path);
        return { status: 'success', result: 'deleted' };
      },
    });
    const h = createHarness({
      tools: { remove },
      guards: [
        ({ args }) =>
          (args as { path: string }).path.startsWith('/protected')
            ? { action: 'deny', reason: 'Permission denied: /protected is read-only.' }
            : { action: 'allow' },
      ],
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'remove', arguments: { path: '/protected/a' } },
            { id: 'c2', name: 'remove', arguments: { path: '/tmp/b' } },
          ],
        },
        { text: 'Corrected.' },
      ],
    });
    expect(await h.send('go')).toEqual({ kind: 'done', reason: 'response' });
    expect(ran).toEqual(['/tmp/b']);
    const results = toolMessages(h.store.messages());
    expect(results.map((m) => [m.tool_call_id, m.tool_status, m.content])).toEqual([
      ['c1', 'error', 'Error: Permission denied: /protected is read-only.'],
      ['c2', 'success', 'deleted'],
    ]);
    const started = h.frames.flatMap((frame) => (frame.type === 'tool_started' ? [frame.tool_call_id] : []));
    expect(started).toEqual(['c2']);
  });

  it('EXE-3: a ToolResult with status error keeps its message in content and its stack in metadata only', async () => {
    const failing = defineTool({
      description: 'Fails politely.',
      execute: async () => ({
        status: 'error',
        error: 'quota exceeded',
        stack: 'Error: quota exceeded\n    at x.ts:1:1',
      }),
    });
    const h = createHarness({
      tools: { failing },
      script: [{ toolCalls: [{ name: 'failing' }] }, { text: 'Corrected.' }],
    });
    await h.send('go');
    const [result] = toolMessages(h.store.messages());
    expect(result?.content).toBe('Error: quota exceeded');
    expect(result?.metadata).toEqual({ stack: 'Error: quota exceeded\n    at x.ts:1:1' });
    expect(result?.envelope).toMatchObject({ type: 'error', error_text: 'quota exceeded' });
  });

  it('EXE-3: each result is persisted before the next call of the same step starts', async () => {
    const seen: Array<Array<string | null>> = [];
    const inspect = defineTool({
      description: 'Reports the tool messages already in the log.',
      execute: async (state: ThreadState) => {
        const { messages } = await state.getMessages();
        seen.push(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
        return { status: 'success', result: 'ok' };
      },
    });
    const h = createHarness({
      tools: { inspect },
      script: [
        {
          toolCalls: [
            { id: 'c1', name: 'inspect' },
            { id: 'c2', name: 'inspect' },
            { id: 'c3', name: 'inspect' },
          ],
        },
        { text: 'done' },
      ],
    });
    await h.send('go');
    expect(seen).toEqual([[], ['c1'], ['c1', 'c2']]);
  });
});

describe('EXE-4: ToolResult in, envelope stored and streamed', () => {
  it('EXE-4: a success result is stored with the output envelope and the frames come in order', async () => {
    const clock = { now: 1_000 };
    const slowAdd = defineTool({
      description: 'Adds two numbers.',
      args: z.object({ a: z.number(), b: z.number() }),
      execute: async (_state, { a, b }) => {
        clock.now += 7; // the tool "takes" 7 ms on the injected clock
        return { status: 'success', result: String(a + b) };
      },
    });
    const h = createHarness({
      tools: { add: slowAdd },
      now: () => clock.now,
      script: [{ toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 40, b: 2 } }] }, { text: 'It is 42.' }],
    });
    await h.send('add');

    const [result] = toolMessages(h.store.messages());
    expect(result).toMatchObject({
      role: 'tool',
      name: 'add',
      tool_call_id: 'c1',
      tool_status: 'success',
      content: '42',
      attachments: null,
      metadata: null,
    });
    expect(result?.envelope).toEqual({ type: 'output', data: '42', metadata: { duration_ms: 7 } });

    // THR-4: each model step's message is followed by its usage frame.
    expect(h.frameTypes()).toEqual([
      'message',
      'message',
      'usage',
      'tool_started',
      'tool_result',
      'message',
      'message',
      'usage',
    ]);
    const frames = h.frames.filter(
      (frame) => frame.type !== 'message_delta' && frame.type !== 'tool_call_delta' && frame.type !== 'usage',
    );
    // LOCK-7: every tool frame carries the tool's ACP kind ('other' unless the tool declares one).
    expect(frames[2]).toEqual({
      type: 'tool_started',
      tool_call_id: 'c1',
      name: 'add',
      kind: 'other',
      arguments: { a: 40, b: 2 },
    });
    expect(frames[3]).toEqual({
      type: 'tool_result',
      tool_call_id: 'c1',
      name: 'add',
      kind: 'other',
      status: 'success',
      envelope: { type: 'output', data: '42', metadata: { duration_ms: 7 } },
    });
    expect(frames[4]).toMatchObject({ type: 'message', message: { id: result?.id, role: 'tool' } });
    expect(frames[5]).toMatchObject({ type: 'message', message: { role: 'assistant', content: 'It is 42.' } });
  });

  it('EXE-4: validated arguments (with defaults applied) are what tool_started shows and execute receives', async () => {
    const { tool, calls } = counterTool();
    const h = createHarness({
      tools: { register_user: tool },
      script: [
        { toolCalls: [{ name: 'register_user', arguments: { user: { name: 'Ada', age: 36 } } }] },
        { text: 'ok' },
      ],
    });
    await h.send('go');
    const expected = { user: { name: 'Ada', age: 36 }, tags: [] };
    expect(calls).toEqual([expected]);
    expect(h.frames.find((frame) => frame.type === 'tool_started')).toMatchObject({ arguments: expected });
  });

  it('EXE-4: an error result is stored with the error envelope and a tool_result frame with status error', async () => {
    const failing = defineTool({
      description: 'Fails.',
      execute: async () => ({ status: 'error', error: 'no such city' }),
    });
    const h = createHarness({
      tools: { failing },
      now: () => 5,
      script: [{ toolCalls: [{ id: 'c1', name: 'failing' }] }, { text: 'ok' }],
    });
    await h.send('go');
    const [result] = toolMessages(h.store.messages());
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toBe('Error: no such city');
    expect(result?.envelope).toEqual({ type: 'error', error_text: 'no such city', metadata: { duration_ms: 0 } });
    expect(h.frameTypes()).toEqual([
      'message',
      'message',
      'usage',
      'tool_started',
      'tool_result',
      'message',
      'message',
      'usage',
    ]);
    expect(h.frames.find((frame) => frame.type === 'tool_result')).toMatchObject({
      status: 'error',
      envelope: { type: 'error', error_text: 'no such city' },
    });
  });

  it('EXE-4: a validation error also gets an error envelope, a tool_result frame and a message frame', async () => {
    const h = createHarness({
      tools: { echo },
      script: [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] }, { text: 'ok' }],
    });
    await h.send('go');
    expect(h.frameTypes()).toEqual(['message', 'message', 'usage', 'tool_result', 'message', 'message', 'usage']);
    const [result] = toolMessages(h.store.messages());
    expect(result?.envelope).toMatchObject({ type: 'error', metadata: { duration_ms: expect.any(Number) } });
    expect(result?.envelope?.type === 'error' && result.envelope.error_text).toContain('text');
  });
});

describe('DEF-3: tools without arguments', () => {
  it('DEF-3: a tool without args is called with the state only, whatever arguments the model sends', async () => {
    const received: unknown[][] = [];
    const ping = defineTool({
      description: 'Answers pong.',
      execute: (async (...params: unknown[]) => {
        received.push(params);
        return { status: 'success', result: 'pong' };
      }) as (state: ThreadState) => Promise<ToolResult>,
    });
    const h = createHarness({
      tools: { ping },
      script: [
        {
          toolCalls: [
            { name: 'ping', arguments: '' },
            { name: 'ping', arguments: { x: 1 } },
          ],
        },
        { text: 'ok' },
      ],
    });
    await h.send('go');
    expect(received).toHaveLength(2);
    for (const params of received) expect(params).toHaveLength(1);
    expect(toolMessages(h.store.messages()).map((m) => m.content)).toEqual(['pong', 'pong']);
  });
});

describe('EXE-8: secrets are scrubbed from what leaves a tool', () => {
  it('EXE-8: a secret in an error message and stack is scrubbed from content, envelope, metadata and frames', async () => {
    const SECRET = 'sk-live-0123456789';
    const leaky = defineTool({
      description: 'Leaks a key.',
      execute: async (): Promise<ToolResult> => {
        throw new Error(`request failed with key ${SECRET}`);
      },
    });
    const h = createHarness({
      tools: { leaky },
      scrub: (text) => text.replaceAll(SECRET, '[secret]'),
      script: [{ toolCalls: [{ name: 'leaky' }] }, { text: 'ok' }],
    });
    await h.send('go');
    const [result] = toolMessages(h.store.messages());
    expect(result?.content).toContain('[secret]');
    expect(JSON.stringify(h.store.messages())).not.toContain(SECRET);
    expect(JSON.stringify(h.frames)).not.toContain(SECRET);
    expect(JSON.stringify(h.requests)).not.toContain(SECRET);
  });
});
