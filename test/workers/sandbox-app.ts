/**
 * Test agent for sandboxed code (CODE-1, THR-7): `sandbox` offers `run_code`, `sb_program` (a tool
 * that hands its arguments to `state.runCode`, so a test sets every option), and small tools a
 * program calls: one that adds, one that counts its runs, one that needs approval, one denied.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

export const tools = {
  sb_program: defineTool({
    description: 'Run a program with the given sandbox options and report its outcome',
    args: z.object({
      code: z.string(),
      input_json: z.string().optional(),
      modules_json: z.string().optional(),
      network: z.boolean().optional(),
      read: z.array(z.string()).optional(),
      write: z.array(z.string()).optional(),
      tools: z.array(z.string()).optional(),
      timeout: z.number().optional(),
      memory_mb: z.number().optional(),
    }),
    requires: { net: { hosts: ['*'] }, fs: { read: ['{workspace}/**'], write: ['{workspace}/**'] } },
    timeout: 60_000,
    execute: async (state, args) => {
      const outcome = await state.runCode(args.code, {
        ...(args.input_json ? { input: JSON.parse(args.input_json) } : {}),
        ...(args.modules_json ? { modules: JSON.parse(args.modules_json) } : {}),
        network: args.network,
        files: { read: args.read, write: args.write },
        tools: args.tools,
        timeout: args.timeout,
        memoryMB: args.memory_mb,
      });
      return { status: 'success', result: JSON.stringify(outcome) };
    },
  }),
  sb_add: defineTool({
    description: 'Add two numbers',
    args: z.object({ a: z.number(), b: z.number() }),
    execute: async (_state, args) => ({ status: 'success', result: String(args.a + args.b) }),
  }),
  sb_tick: defineTool({
    description: 'Count how many times it ran in this thread',
    execute: async (state) => {
      const count = ((await state.getValue<number>('ticks')) ?? 0) + 1;
      await state.setValue('ticks', count);
      return { status: 'success', result: `tick ${count}` };
    },
  }),
  sb_guarded: defineTool({
    description: 'Do something a human approves first',
    execute: async () => ({ status: 'success', result: 'guarded ran' }),
  }),
  sb_denied: defineTool({
    description: 'Do something no one may do',
    execute: async () => ({ status: 'success', result: 'denied tool ran' }),
  }),
};

export const prompts = [
  // The same tools on the model of the local OpenAI-compatible server, which records what it is sent.
  definePrompt({
    name: 'sandbox_remote',
    prompt: 'You write programs.',
    model: 'remote',
    tools: ['run_code', 'sb_add'],
  }),
  definePrompt({
    name: 'sandbox',
    prompt: 'You write programs.',
    model: 'scripted',
    tools: ['run_code', 'sb_program', 'sb_add', 'sb_tick', 'sb_guarded', 'sb_denied', 'write'],
  }),
];

export const agents = [
  defineAgent({
    name: 'sandbox_remote',
    sideA: { prompt: 'sandbox_remote' },
    permissions: [{ permission: '*', action: 'allow' }],
  }),
  defineAgent({
    name: 'sandbox',
    sideA: { prompt: 'sandbox' },
    permissions: [
      { permission: 'sb_guarded', action: 'ask' },
      { permission: 'sb_denied', action: 'deny' },
      { permission: 'fs.write', pattern: '/locked/**', action: 'deny' },
      { permission: 'fs.read', pattern: '/locked/**', action: 'deny' },
      { permission: '*', pattern: '*', action: 'allow' },
    ],
  }),
];
