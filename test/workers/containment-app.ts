/**
 * Test agents for containment through HTTP (PERM-1, PERM-2, PERM-4, SUB-2, EXE-6, EXE-8):
 * the example `workspace` agent's own rules on a scripted model, an agent with denies, an agent with
 * no rule about its tools, a parent whose children are allowed everything by their own manifest, and
 * an agent whose tool writes its secret into file names and bytes.
 */
import { z } from 'zod';
import workspaceExample from '../../agents/agents/workspace.js';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';
import { SECRET_FILE_CASES } from '../support/hostile-corpus.js';

const ALLOW = { permission: '*', pattern: '*', action: 'allow' } as const;
const FILE_TOOLS = ['read', 'write', 'edit', 'glob', 'grep', 'bash'];

/** What each late writer's acts got, by the URL it was given: the late writer cannot tell anyone itself. */
const lateOutcomes = new Map<string, Promise<string>>();

const FILE_SECRET = { name: 'FILE_SECRET', type: 'secret', required: true, description: 'A secret' } as const;

export const tools = {
  write_secret_file: defineTool({
    description: 'Write the file of one secret-file case of the hostile corpus',
    args: z.object({ index: z.number().int().min(0).describe('Which case') }),
    variables: [FILE_SECRET],
    execute: async (state, args) => {
      const entry = SECRET_FILE_CASES[args.index];
      if (!entry) return { status: 'error', error: `no case ${args.index}` };
      const secret = await state.env('FILE_SECRET');
      await state.writeFile(entry.path(secret), entry.bytes(secret));
      return { status: 'success', result: 'written' };
    },
  }),
  late_writer: defineTool({
    description: 'Write a file and fetch a URL after the call has ended, ignoring the abort signal',
    args: z.object({ report: z.string().describe('The URL to fetch after the late write') }),
    timeout: 30,
    execute: async (state, args) => {
      let reported = (_outcome: string) => {};
      lateOutcomes.set(args.report, new Promise((resolve) => (reported = resolve)));
      const callId = state.execution?.toolCallId;
      // Wait until the timeout's result is stored: whatever this call does now comes too late.
      for (;;) {
        const { messages: log } = await state.getMessages({ limit: Infinity });
        if (log.some((message) => message.role === 'tool' && message.tool_call_id === callId)) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const attempt = async (act: () => Promise<unknown>) =>
        act().then(
          () => 'done',
          (error: Error) => error.message,
        );
      const write = await attempt(() => state.writeFile('/late.txt', 'late'));
      // EXE-10: the global fetch of a call that ended is refused like its state.
      const fetched = await attempt(() => fetch(args.report));
      reported(`write: ${write}\nfetch: ${fetched}`);
      return { status: 'success', result: write };
    },
  }),
  late_outcome: defineTool({
    description: "Report what a late writer's acts got, once it has tried them",
    args: z.object({ report: z.string().describe('The URL the late writer was given') }),
    execute: async (_state, args) => ({
      status: 'success',
      result: (await lateOutcomes.get(args.report)) ?? 'no late writer ran',
    }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'contained_ws',
    prompt: '',
    model: 'scripted',
    tools: [...FILE_TOOLS, 'task', 'late_writer', 'late_outcome'],
  }),
  definePrompt({
    name: 'strict_parent',
    prompt: '',
    model: 'scripted',
    tools: [
      ...FILE_TOOLS,
      'task',
      { name: 'free_child', blocking: true },
      { name: 'free_worker', resumable: { receives_messages: 'side_a' } },
    ],
  }),
  definePrompt({ name: 'free_files', prompt: '', model: 'scripted', tools: FILE_TOOLS }),
  definePrompt({ name: 'secret_files', prompt: '', model: 'scripted', tools: [...FILE_TOOLS, 'write_secret_file'] }),
];

export const agents = [
  // The example application's workspace agent, its rules exactly as it declares them.
  defineAgent({
    name: 'example_workspace',
    sideA: { prompt: 'contained_ws' },
    permissions: workspaceExample.permissions,
  }),
  defineAgent({
    name: 'guarded',
    sideA: { prompt: 'contained_ws' },
    permissions: [
      ALLOW,
      { permission: 'fs.read', pattern: '/secret/*', action: 'deny' },
      { permission: 'fs.write', pattern: '/outside/*', action: 'deny' },
    ],
  }),
  // Its one rule is about a tool it does not use: nothing covers bash, so bash asks.
  defineAgent({
    name: 'bare',
    sideA: { prompt: 'contained_ws' },
    permissions: [{ permission: 'todo', action: 'allow' }],
  }),
  defineAgent({
    name: 'strict_parent',
    sideA: { prompt: 'strict_parent' },
    permissions: [ALLOW, { permission: 'bash', pattern: 'rm -rf *', action: 'deny' }],
  }),
  // The children allow themselves everything: only what they inherit restricts them.
  defineAgent({ name: 'free_child', exposeAsTool: true, sideA: { prompt: 'free_files' }, permissions: [ALLOW] }),
  defineAgent({ name: 'free_worker', sideA: { prompt: 'free_files' }, permissions: [ALLOW] }),
  // Writes files carrying its secret variable where the text scrubber does not read.
  defineAgent({ name: 'secret_files', sideA: { prompt: 'secret_files' }, permissions: [ALLOW] }),
];
