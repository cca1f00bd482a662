/**
 * Test agents for the thread limits (ATT-6, THR-8). The test Worker runs with small limits
 * (LIMITS, handed to createRuntime in worker.ts) so a test fills a thread in a few megabytes.
 * `quota` writes, removes and attaches files of a given size and returns long results (their
 * sidecars are files too); `quota_child` is a subagent that
 * attaches a file, so its parent has to take it in; files handed to it come from its parent.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

const MiB = 1024 * 1024;

/** The test Worker's limits: 4 MiB of files per thread, 5 queued messages. */
export const LIMITS = { threadStorageBytes: 4 * MiB, inboxMessages: 5 };

/** `bytes` bytes of one repeated letter, as the tools write them. */
function filled(bytes: number): Uint8Array {
  return new Uint8Array(bytes).fill(120);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

const size = z.number().int().min(0).describe('How many bytes');

export const tools = {
  write_bytes: defineTool({
    description: 'Write a file of the given size',
    args: z.object({ path: z.string().describe('Where'), bytes: size }),
    execute: async (state, args) => {
      const stored = await state.writeFile(args.path, filled(args.bytes));
      return { status: 'success', result: `wrote ${stored.size} bytes to ${stored.path}` };
    },
  }),
  remove_file: defineTool({
    description: 'Remove a file',
    args: z.object({ path: z.string().describe('Which') }),
    execute: async (state, args) => ({
      status: 'success',
      result: (await state.unlinkFile(args.path)) ? 'removed' : 'no such file',
    }),
  }),
  long_output: defineTool({
    description: 'Return a result text of the given size',
    args: z.object({ bytes: size }),
    execute: async (_state, args) => ({ status: 'success', result: 'o'.repeat(args.bytes) }),
  }),
  attach_bytes: defineTool({
    description: 'Return an attachment of the given size',
    args: z.object({ name: z.string().describe('Its name'), bytes: size }),
    execute: async (_state, args) => ({
      status: 'success',
      result: 'attached',
      attachments: [{ name: args.name, mimeType: 'application/octet-stream', data: base64(filled(args.bytes)) }],
    }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'quota',
    prompt: '',
    model: 'scripted',
    tools: [
      'write_bytes',
      'remove_file',
      'attach_bytes',
      'long_output',
      'question',
      'read',
      'write',
      { name: 'quota_child', initAttachmentsProperty: 'files' },
    ],
  }),
  definePrompt({ name: 'quota_child', prompt: '', model: 'scripted', tools: ['attach_bytes'] }),
];

export const agents = [
  defineAgent({ name: 'quota', sideA: { prompt: 'quota' } }),
  defineAgent({
    name: 'quota_child',
    exposeAsTool: true,
    toolDescription: 'Run the quota child on a task',
    sideA: { prompt: 'quota_child' },
  }),
];
