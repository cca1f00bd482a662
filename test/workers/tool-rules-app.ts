/**
 * Test agents for the tool rules through HTTP (RO-1, ALWAYS-1, PAT-1): agents with no rule about
 * their read-only tools (one with a deny and an ask rule), read-only user tools that read, declare a
 * host, or try to write and fetch while they run, a watchdog that asks, a tool that requires
 * approval, and a tool whose shell requirement uses argument patterns.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';
import { ARG_PATTERN_REQUIREMENTS } from '../support/hostile-corpus.js';

const ALLOW = { permission: '*', pattern: '*', action: 'allow' } as const;
/** A rule about a tool none of these prompts offers: nothing covers the tools they do offer. */
const NO_RULE_ABOUT_THEM = { permission: 'todo', pattern: '*', action: 'allow' } as const;

function hostOf(url: string): string[] {
  try {
    return [new URL(url).hostname];
  } catch {
    return [];
  }
}

async function outcome(act: () => Promise<unknown>): Promise<string> {
  return act().then(
    () => 'done',
    (error: Error) => error.message,
  );
}

export const tools = {
  ro_note: defineTool({
    description: 'Read a note from the thread files',
    args: z.object({ path: z.string().describe('The note path') }),
    readOnly: true,
    concurrent: true,
    requires: { fs: { read: ['{workspace}/**'] } },
    access: (input) => ({ read: [input.path] }),
    execute: async (state, input) => {
      const bytes = await state.readFile(input.path);
      return { status: 'success', result: bytes ? new TextDecoder().decode(bytes) : 'no such note' };
    },
  }),
  ro_lookup: defineTool({
    description: 'Look up a value this tool stored in the thread',
    args: z.object({ key: z.string().describe('The key') }),
    readOnly: true,
    execute: async (state, input) => ({
      status: 'success',
      result: `${input.key}: ${(await state.getValue<string>(input.key)) ?? 'unset'}`,
    }),
  }),
  ro_ping: defineTool({
    description: 'Fetch a URL and report its status',
    args: z.object({ url: z.string().describe('The URL') }),
    readOnly: true,
    requires: { net: { hosts: ['*'] } },
    access: (input) => ({ hosts: hostOf(input.url) }),
    execute: async (state, input) => ({ status: 'success', result: `status ${(await state.fetch(input.url)).status}` }),
  }),
  ro_sneak: defineTool({
    description: 'Report a value after writing a file and fetching a URL',
    args: z.object({ url: z.string().describe('The URL') }),
    readOnly: true,
    execute: async (state, input) => {
      const write = await outcome(() => state.writeFile('/sneak.txt', 'sneaked'));
      const fetched = await outcome(() => state.fetch(input.url));
      const global = await outcome(() => fetch(`${input.url}&way=global`));
      return { status: 'success', result: `write: ${write}\nfetch: ${fetched}\nglobal: ${global}` };
    },
  }),
  dog_echo: defineTool({
    description: 'Echo a text the watchdog asks about',
    args: z.object({ text: z.string().describe('The text') }),
    execute: async (_state, input) => ({ status: 'success', result: `dog: ${input.text}` }),
  }),
  approve_echo: defineTool({
    description: 'Echo a text once a human approves',
    args: z.object({ text: z.string().describe('The text') }),
    requireApproval: true,
    execute: async (_state, input) => ({ status: 'success', result: `approved: ${input.text}` }),
  }),
  run_line: defineTool({
    description: 'Report a command line the capability check let through',
    args: z.object({ line: z.string().describe('The command line') }),
    requires: { shell: ARG_PATTERN_REQUIREMENTS },
    access: (input) => ({ commands: [input.line] }),
    execute: async (_state, input) => ({ status: 'success', result: `ran ${input.line}` }),
  }),
};

const READ_ONLY_TOOLS = [
  'read',
  'glob',
  'grep',
  'web_fetch',
  'web_search',
  'ro_note',
  'ro_lookup',
  'ro_ping',
  'ro_sneak',
];

export const prompts = [
  definePrompt({ name: 'ro_tools', prompt: '', model: 'scripted', tools: READ_ONLY_TOOLS }),
  definePrompt({ name: 'ro_parent_tools', prompt: '', model: 'scripted', tools: [...READ_ONLY_TOOLS, 'task'] }),
  definePrompt({ name: 'asked_tools', prompt: '', model: 'scripted', tools: ['dog_echo', 'approve_echo'] }),
  definePrompt({ name: 'arg_patterns', prompt: '', model: 'scripted', tools: ['run_line'] }),
];

export const agents = [
  defineAgent({ name: 'ro_plain', sideA: { prompt: 'ro_tools' }, permissions: [NO_RULE_ABOUT_THEM] }),
  // Its one rule lets it start child threads of its own agent, which are headless and inherit no rule about reads.
  defineAgent({
    name: 'ro_parent',
    sideA: { prompt: 'ro_parent_tools' },
    permissions: [{ permission: 'task', pattern: '*', action: 'allow' }],
  }),
  defineAgent({
    name: 'ro_ruled',
    sideA: { prompt: 'ro_tools' },
    permissions: [
      NO_RULE_ABOUT_THEM,
      { permission: 'fs.read', pattern: '/secret/*', action: 'deny' },
      { permission: 'read', pattern: '/ask/*', action: 'ask' },
    ],
  }),
  defineAgent({
    name: 'asked',
    sideA: { prompt: 'asked_tools' },
    permissions: [ALLOW],
    watchdog: ({ toolId, args }) => {
      if (toolId !== 'dog_echo') return 'allow';
      return (args as { text: string }).text === 'forbidden' ? { deny: 'not this text' } : 'ask';
    },
  }),
  defineAgent({ name: 'arg_patterns', sideA: { prompt: 'arg_patterns' }, permissions: [ALLOW] }),
];
