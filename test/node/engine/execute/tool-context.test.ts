/**
 * Tool context (KIND-6): a tool's typed local context (`contextSchema`), the thread's shared context
 * (`sharedContextSchema`), validation on update and persistence in the thread's store.
 */
import { ContextValidationError, defineTool, type ToolResult } from '@standardagents/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { localContextKey, SHARED_CONTEXT_KEY } from '../../../../src/engine/execute/tool-context.js';
import { createHarness, MemoryFileStore, MemoryThreadStore } from '../../../support/memory-store.js';

const ok = (result: unknown): ToolResult => ({ status: 'success', result: JSON.stringify(result) });

const sharedSchema = z.object({ visits: z.number().int().nonnegative() });

/** Counts its own calls locally and every tool's visits in the shared context. */
const counter = defineTool({
  description: 'Count calls',
  contextSchema: z.object({ count: z.number().int(), note: z.string().optional() }),
  sharedContextSchema: sharedSchema,
  execute: async (state) => {
    const count = (state.context.local.count ?? 0) + 1;
    await state.setContext({ count });
    await state.setContext({ visits: (state.context.shared.visits ?? 0) + 1 }, { scope: 'shared' });
    return ok({ local: state.context.local, shared: state.context.shared });
  },
});

/** Same field names as `counter`, but its own local context. */
const other = defineTool({
  description: 'Another counter',
  contextSchema: z.object({ count: z.number().int() }),
  sharedContextSchema: sharedSchema,
  execute: async (state) => {
    await state.setContext({ count: (state.context.local.count ?? 0) + 100 });
    await state.setContext({ visits: (state.context.shared.visits ?? 0) + 1 }, { scope: 'shared' });
    return ok({ local: state.context.local, shared: state.context.shared });
  },
});

const callEach = (...names: string[]) => [{ toolCalls: names.map((name) => ({ name })) }, { text: 'done' }];

function results(h: ReturnType<typeof createHarness>): unknown[] {
  return h.byRole('tool').map((message) => JSON.parse(message.content ?? 'null'));
}

describe('KIND-6: local and shared tool context', () => {
  it('KIND-6: contextSchema types state.context.local and sharedContextSchema types state.context.shared', () => {
    defineTool({
      description: 'Types only',
      contextSchema: z.object({ count: z.number() }),
      sharedContextSchema: z.object({ user: z.string() }),
      execute: async (state) => {
        expectTypeOf(state.context.local.count).toEqualTypeOf<number | undefined>();
        expectTypeOf(state.context.shared.user).toEqualTypeOf<string | undefined>();
        // @ts-expect-error: the local context has no such field
        await state.setContext({ missing: 1 });
        // @ts-expect-error: a shared field is not local
        await state.setContext({ user: 'x' });
        await state.setContext({ user: 'x' }, { scope: 'shared' });
        return ok(null);
      },
    });
  });

  it('KIND-6: a tool updates its local context with setContext; later calls and the same call see it live', async () => {
    const h = createHarness({ tools: { counter }, script: callEach('counter', 'counter') });
    await h.send('count twice');
    expect(results(h)).toEqual([
      { local: { count: 1 }, shared: { visits: 1 } },
      { local: { count: 2 }, shared: { visits: 2 } },
    ]);
  });

  it('KIND-6: local context is keyed by tool name; the shared context is one for all tools', async () => {
    const h = createHarness({ tools: { counter, other }, script: callEach('counter', 'other', 'counter') });
    await h.send('go');
    expect(results(h)).toEqual([
      { local: { count: 1 }, shared: { visits: 1 } },
      { local: { count: 100 }, shared: { visits: 2 } },
      { local: { count: 2 }, shared: { visits: 3 } },
    ]);
    expect(h.store.getValue(localContextKey('counter'))).toEqual({ count: 2 });
    expect(h.store.getValue(localContextKey('other'))).toEqual({ count: 100 });
    expect(h.store.getValue(SHARED_CONTEXT_KEY)).toEqual({ visits: 3 });
  });

  it('KIND-6: context persists across turns and a restart (a new runtime over the same store)', async () => {
    const store = new MemoryThreadStore({ agentId: 'test_agent' });
    const fileStore = new MemoryFileStore();
    const first = createHarness({ tools: { counter }, store, fileStore, script: callEach('counter') });
    await first.send('turn one');
    await first.send('turn two');
    const restarted = createHarness({ tools: { counter }, store, fileStore, script: callEach('counter') });
    await restarted.send('turn three');
    expect(results(restarted)).toEqual([
      { local: { count: 1 }, shared: { visits: 1 } },
      { local: { count: 2 }, shared: { visits: 2 } },
      { local: { count: 3 }, shared: { visits: 3 } },
    ]);
  });

  it('KIND-6: an invalid local update rejects with an error naming the field path and stores nothing', async () => {
    let caught: unknown;
    const nested = defineTool({
      description: 'Writes a bad nested value',
      contextSchema: z.object({ limits: z.object({ max: z.number() }), label: z.string() }),
      execute: async (state) => {
        await state.setContext({ limits: { max: 3 }, label: 'ok' });
        try {
          await state.setContext({ limits: { max: 'many' as unknown as number } });
        } catch (error) {
          caught = error;
        }
        await state.setContext({ label: 7 as unknown as string });
        return ok('unreachable');
      },
    });
    const h = createHarness({ tools: { nested }, script: callEach('nested') });
    await h.send('go');

    expect(caught).toBeInstanceOf(ContextValidationError);
    expect((caught as ContextValidationError).paths).toEqual(['limits.max']);
    expect((caught as Error).message).toMatch(
      /^setContext: the context of tool "nested" would not match its contextSchema \(limits\.max: .*number.*\); nothing was stored$/,
    );
    // The thrown error became the tool's error result; the stored value is the last valid one.
    const [result] = h.byRole('tool');
    expect(result).toMatchObject({ tool_status: 'error' });
    expect(result?.content).toContain('label:');
    expect(h.store.getValue(localContextKey('nested'))).toEqual({ limits: { max: 3 }, label: 'ok' });
  });

  it('KIND-6: shared updates are validated against the writing tool sharedContextSchema; other fields are kept', async () => {
    const writer = defineTool({
      description: 'Writes shared fields',
      sharedContextSchema: z.object({ theme: z.enum(['dark', 'light']) }),
      execute: async (state) => {
        // Fields outside the tool's schema are not typed, but are kept.
        await state.setContext({ theme: 'dark', owner: 'ann' } as { theme: 'dark' }, { scope: 'shared' });
        await state.setContext({ theme: 'blue' as 'dark' }, { scope: 'shared' });
        return ok('unreachable');
      },
    });
    const h = createHarness({ tools: { writer }, script: callEach('writer') });
    await h.send('go');
    expect(h.byRole('tool')[0]?.content).toMatch(
      /the shared context would not match the sharedContextSchema of tool "writer" \(theme: /,
    );
    expect(h.store.getValue(SHARED_CONTEXT_KEY)).toEqual({ theme: 'dark', owner: 'ann' });
  });

  it('KIND-6: validation sees the value as storage returns it: undefined removes a key, a Date is refused', async () => {
    const h = createHarness();
    const store = h.store;
    const state = h.state({
      stepCount: 1,
      currentSide: 'a',
      abortSignal: new AbortController().signal,
      toolCallId: 'c1',
      toolName: 'free',
    });
    await state.setContext({ a: 1, b: 2 });
    await state.setContext({ b: undefined });
    expect(state.context.local).toEqual({ a: 1 });
    expect(store.getValue(localContextKey('free'))).toEqual({ a: 1 });
    await state.setContext({ when: new Date(0) });
    // Without a schema nothing is refused; the value is what storage gives back.
    expect(state.context.local).toEqual({ a: 1, when: '1970-01-01T00:00:00.000Z' });
  });

  it('KIND-6: a tool without contextSchema may keep an untyped local context', async () => {
    const plain = defineTool({
      description: 'Untyped',
      execute: async (state) => {
        await state.setContext({ seen: true });
        return ok(state.context.local);
      },
    });
    const h = createHarness({ tools: { plain }, script: callEach('plain') });
    await h.send('go');
    expect(results(h)).toEqual([{ seen: true }]);
  });

  it("KIND-6: the runtime's context keys and a tool's setValue keys never meet", async () => {
    const h = createHarness({ tools: { counter }, script: callEach('counter') });
    const outside = h.state();
    await outside.setValue(SHARED_CONTEXT_KEY, 'user value');
    await outside.setValue(localContextKey('counter'), 'user value');
    await h.send('go');
    expect(results(h)).toEqual([{ local: { count: 1 }, shared: { visits: 1 } }]);
    expect(await outside.getValue(SHARED_CONTEXT_KEY)).toBe('user value');
  });

  it('KIND-6: outside a tool call there is no local context; the shared one can be read and written', async () => {
    const h = createHarness();
    const state = h.state();
    expect(state.context).toEqual({ local: {}, shared: {} });
    await expect(state.setContext({ x: 1 })).rejects.toThrow(/local context belongs to a running tool/);
    await state.setContext({ x: 1 }, { scope: 'shared' });
    expect(state.context.shared).toEqual({ x: 1 });
    await expect(state.setContext([] as unknown as Record<string, unknown>, { scope: 'shared' })).rejects.toThrow(
      /plain object/,
    );
  });

  it('KIND-6: defineTool refuses context schemas that are not Zod objects', () => {
    const execute = async () => ok(null);
    expect(() =>
      defineTool({ description: 'x', contextSchema: z.string() as unknown as z.ZodObject, execute }),
    ).toThrow(/contextSchema must be a Zod object schema/);
    expect(() => defineTool({ description: 'x', sharedContextSchema: {} as unknown as z.ZodObject, execute })).toThrow(
      /sharedContextSchema must be a Zod object schema/,
    );
    expect(defineTool({ description: 'x', execute })).toMatchObject({ contextSchema: null, sharedContextSchema: null });
  });
});
