/**
 * Test agents for forks, edits and rewinds: tools a scripted model calls to write, delete and read
 * files (idempotent or read-only: a rewind over them needs no `force`), to send something outside the
 * thread (neither: a rewind over it is refused without `force`), and to prove a secret variable is
 * there without showing it (its SHA-256).
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type VariableDefinition } from '../../src/index.js';

const servicesUrl: VariableDefinition = {
  name: 'SERVICES_URL',
  type: 'text',
  required: true,
  description: 'The local services',
};

const token: VariableDefinition = {
  name: 'HIST_TOKEN',
  type: 'secret',
  required: false,
  description: 'A token only tools may use',
};

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const tools = {
  hist_write: defineTool({
    description: 'Write a file',
    idempotent: true,
    args: z.object({ path: z.string(), text: z.string() }),
    execute: async (state, args) => {
      await state.writeFile(args.path, args.text);
      return { status: 'success', result: `wrote ${args.path}` };
    },
  }),
  // `mib` MiB of one letter: files large enough to push the file history past its bound.
  hist_big: defineTool({
    description: 'Write a large file',
    idempotent: true,
    args: z.object({ path: z.string(), mib: z.number(), letter: z.string() }),
    execute: async (state, args) => {
      const bytes = new Uint8Array(args.mib * 1024 * 1024).fill(args.letter.charCodeAt(0));
      await state.writeFile(args.path, bytes);
      return { status: 'success', result: `wrote ${args.path}` };
    },
  }),
  hist_delete: defineTool({
    description: 'Delete a file',
    idempotent: true,
    args: z.object({ path: z.string() }),
    execute: async (state, args) => ({
      status: 'success',
      result: (await state.unlinkFile(args.path)) ? `deleted ${args.path}` : 'absent',
    }),
  }),
  hist_read: defineTool({
    description: 'Read a file',
    readOnly: true,
    args: z.object({ path: z.string() }),
    execute: async (state, args) => {
      const text = await state.readFile(args.path);
      return { status: 'success', result: text === null ? 'absent' : new TextDecoder().decode(text) };
    },
  }),
  // Sends `text` to the local services: a change outside the thread a rewind cannot take back.
  hist_send: defineTool({
    description: 'Send a note outside the thread',
    args: z.object({ text: z.string() }),
    variables: [servicesUrl],
    execute: async (state, args) => {
      const response = await state.fetch(`${state.tenvs.SERVICES_URL}/web/echo?text=${encodeURIComponent(args.text)}`);
      return { status: 'success', result: await response.text() };
    },
  }),
  // Runs until /web/release/<key> is asked of the services: a turn the test keeps running.
  hist_hold: defineTool({
    description: 'Wait until the test lets the call finish',
    readOnly: true,
    args: z.object({ key: z.string() }),
    variables: [servicesUrl],
    execute: async (state, args) => {
      const response = await state.fetch(`${state.tenvs.SERVICES_URL}/web/hold/${args.key}`);
      return { status: 'success', result: await response.text() };
    },
  }),
  hist_token: defineTool({
    description: 'Prove the token is there without showing it',
    readOnly: true,
    variables: [token],
    execute: async (state) => {
      const value = state.tenvs.HIST_TOKEN;
      return { status: 'success', result: value ? `token sha256 ${await sha256(value)}` : 'no token' };
    },
  }),
};

export const prompts = [
  definePrompt({
    name: 'history',
    prompt: '',
    model: 'scripted',
    tools: [
      'hist_write',
      'hist_big',
      'hist_delete',
      'hist_read',
      'hist_send',
      'hist_hold',
      'hist_token',
      'task',
      'question',
    ],
  }),
];

export const agents = [
  defineAgent({ name: 'history', sideA: { prompt: 'history' }, variables: [servicesUrl, token] }),
  defineAgent({ name: 'history_other', sideA: { prompt: 'history' }, variables: [servicesUrl, token] }),
];
