/**
 * Test agents for double-texting (`on_busy`): tools a scripted model calls to write and delete files,
 * to block until the test releases them (a request to the local services held open), and to count
 * their runs there; one agent that queues a second message by default, one that refuses it.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type VariableDefinition } from '../../src/index.js';

const servicesUrl: VariableDefinition = {
  name: 'SERVICES_URL',
  type: 'text',
  required: true,
  description: 'The local services',
};

export const tools = {
  // Runs until /web/release/<key> is asked of the services; each run is one request there.
  dt_hold: defineTool({
    description: 'Wait until the test lets the call finish',
    args: z.object({ key: z.string() }),
    variables: [servicesUrl],
    execute: async (state, args) => {
      const response = await state.fetch(`${state.tenvs.SERVICES_URL}/web/hold/${args.key}`);
      return { status: 'success', result: await response.text() };
    },
  }),
  // Each run is one request to the services: the test counts them.
  dt_count: defineTool({
    description: 'Count a run of this call',
    args: z.object({ key: z.string() }),
    variables: [servicesUrl],
    execute: async (state, args) => {
      const response = await state.fetch(`${state.tenvs.SERVICES_URL}/web/echo?text=${args.key}`);
      return { status: 'success', result: await response.text() };
    },
  }),
  // Counts its run like dt_count, then never returns, with no request left open: a tool a restart
  // cuts. (workerd cannot shut down while an object torn down by the test still has a request open.)
  dt_stall: defineTool({
    description: 'Count a run of this call, then never finish',
    args: z.object({ key: z.string() }),
    variables: [servicesUrl],
    execute: async (state, args) => {
      await (await state.fetch(`${state.tenvs.SERVICES_URL}/web/echo?text=${args.key}`)).text();
      return new Promise(() => {});
    },
  }),
  dt_write: defineTool({
    description: 'Write a file',
    args: z.object({ path: z.string(), text: z.string() }),
    execute: async (state, args) => {
      await state.writeFile(args.path, args.text);
      return { status: 'success', result: `wrote ${args.path}` };
    },
  }),
  dt_delete: defineTool({
    description: 'Delete a file',
    args: z.object({ path: z.string() }),
    execute: async (state, args) => ({
      status: 'success',
      result: (await state.unlinkFile(args.path)) ? `deleted ${args.path}` : 'absent',
    }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'double_texting',
    prompt: '',
    model: 'scripted',
    tools: ['dt_hold', 'dt_count', 'dt_stall', 'dt_write', 'dt_delete', 'question'],
  }),
];

export const agents = [
  defineAgent({ name: 'double_texting', sideA: { prompt: 'double_texting' } }),
  defineAgent({ name: 'double_texting_reject', onBusy: 'reject', sideA: { prompt: 'double_texting' } }),
];
