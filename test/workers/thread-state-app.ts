/**
 * Test agents for the state's messages, lifecycle, queued tools and execution (TS-1 to TS-17,
 * test/workers/thread-state.test.ts): tools that queue another tool, change and remove stored
 * messages, stop their execution, report it, and terminate their own thread; a tool the thread's
 * rules deny, which a queued call must not reach either.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type ThreadState } from '../../src/index.js';
import { jsonResult, refusal } from '../support/tool-outcomes.js';

export const tools = {
  ts_lookup: defineTool({
    description: 'Look a word up',
    args: z.object({ word: z.string() }),
    execute: async (_state, args) => ({ status: 'success', result: `meaning of ${args.word}` }),
  }),
  ts_forbidden: defineTool({
    description: "A tool the thread's rules deny",
    execute: async (state: ThreadState) => {
      await state.setValue('forbidden_ran', true);
      return { status: 'success', result: 'ran' };
    },
  }),
  ts_queue: defineTool({
    description: 'Queue a call of another tool',
    args: z.object({ tool: z.string(), args: z.record(z.string(), z.string()) }),
    execute: async (state, args) => {
      const refused = await refusal(() => state.queueTool(args.tool, args.args));
      return jsonResult({ queued: refused });
    },
  }),
  ts_edit: defineTool({
    description: 'Change one stored message and remove another',
    args: z.object({ update: z.string(), remove: z.string() }),
    execute: async (state, args) => {
      const updated = await refusal(() =>
        state.updateMessage(args.update, { content: 'edited', metadata: { edited: true } }),
      );
      const role = await refusal(() => state.updateMessage(args.update, { role: 'assistant' } as never));
      const removed = await refusal(() => state.deleteMessage(args.remove));
      const current = (await state.getMessages({ order: 'desc', limit: 1, includeSilent: true })).messages[0];
      const running = await refusal(() => state.deleteMessage(current?.id ?? ''));
      return jsonResult({ updated, role, removed, running, gone: await state.getMessage(args.remove) });
    },
  }),
  ts_probe: defineTool({
    description: 'Report the execution',
    execute: async (state) => {
      const run = state.execution;
      const page = await state.getMessages({ limit: 1, order: 'desc' });
      return jsonResult({
        flowId: run?.flowId,
        stepCount: run?.stepCount,
        sideAStepCount: run?.sideAStepCount,
        promptPath: run?.promptPath,
        history: run?.messageHistory.length,
        total: page.total,
        hasMore: page.hasMore,
        terminated: state.terminated,
      });
    },
  }),
  ts_schedule: defineTool({
    description: 'Schedule the ping effect in a minute',
    execute: async (state) => jsonResult({ id: await state.scheduleEffect('ping', {}, 60_000) }),
  }),
  ts_stop: defineTool({
    description: 'Stop the execution once this step is done',
    execute: async (state) => {
      state.execution?.stop();
      return jsonResult({ stopped: state.execution?.stopped, by: state.execution?.stoppedBy });
    },
  }),
  ts_terminate: defineTool({
    description: 'Terminate this thread',
    execute: async (state) => {
      await state.terminate();
      // Again: nothing changes, and nothing waits for this call's own turn.
      await state.terminate();
      return jsonResult({ terminated: typeof state.terminated === 'number' });
    },
  }),
};

export const prompts = [
  definePrompt({
    name: 'ts_main',
    prompt: 'You test the thread state.',
    model: 'scripted',
    tools: ['ts_lookup', 'ts_forbidden', 'ts_queue', 'ts_edit', 'ts_probe', 'ts_schedule', 'ts_stop', 'ts_terminate'],
  }),
];

export const agents = [
  defineAgent({
    name: 'thread_state',
    type: 'ai_human',
    sideA: { prompt: 'ts_main' },
    permissions: [
      { permission: 'ts_forbidden', pattern: '*', action: 'deny' },
      { permission: '*', pattern: '*', action: 'allow' },
    ],
  }),
];
