/**
 * Test agents for effects (the Effects chapter): a tool the scripted model calls to schedule, list and
 * cancel effects, and effects that record what they were given, fail, block until the thread is torn
 * down, run out of time, or try what the thread's rules deny.
 */
import { z } from 'zod';
import { defineAgent, defineEffect, definePrompt, defineThreadEndpoint, defineTool } from '../../src/index.js';

/** Never settles: a handler waiting on it runs until it is stopped or its object is torn down. */
const forever = () => new Promise<never>(() => {});

const TOKEN = {
  name: 'EFFECT_TOKEN',
  type: 'secret',
  required: false,
  description: 'A secret an effect leaks',
} as const;

export const effects = {
  record_args: defineEffect(
    'Queue a message saying what the effect was given',
    z.object({ note: z.string(), count: z.number(), tags: z.array(z.string()), nested: z.object({ ok: z.boolean() }) }),
    async (state, args) => {
      await state.queueMessage({ role: 'user', content: `effect ran with ${JSON.stringify(args)}` });
    },
  ),
  ping: defineEffect('Count a ping', async (state) => {
    const count = ((await state.getValue<number>('pings')) ?? 0) + 1;
    await state.setValue('pings', count);
  }),
  'acme/ping': defineEffect('The acme package own ping', async (state) => {
    await state.setValue('acme_pings', 1);
  }),
  explode: defineEffect('Fail, with the thread secret in the error', async (state) => {
    throw new Error(`exploded holding ${await state.env('EFFECT_TOKEN')}`);
  }),
  block_forever: defineEffect('Block until the thread is torn down', async () => forever(), { timeout: 120_000 }),
  block_once: defineEffect(
    'Block the first time only',
    async (state) => {
      if (await state.getValue('blocked_once')) return;
      await state.setValue('blocked_once', true);
      await forever();
    },
    { idempotent: true, timeout: 120_000 },
  ),
  sleepy: defineEffect('Run past its time', async () => forever(), { timeout: 50 }),
  fetch_url: defineEffect(
    'Fetch a URL with state.fetch or the global fetch',
    z.object({ url: z.string(), via: z.enum(['state', 'global']) }),
    async (state, args) => {
      const response = args.via === 'state' ? await state.fetch(args.url) : await fetch(args.url);
      await state.setValue('fetched', response.status);
    },
  ),
  write_file: defineEffect('Write a file of the thread', z.object({ path: z.string() }), async (state, args) => {
    await state.writeFile(args.path, 'written by an effect');
  }),
};

/** An endpoint that schedules the ping effect: effects can be scheduled from outside any turn too. */
export const endpoints = {
  'effects/ping.post': defineThreadEndpoint(async (_request, state) => {
    const id = await state.scheduleEffect('ping', {});
    return Response.json({ id });
  }),
};

export const tools = {
  schedule_effect: defineTool({
    description: 'Schedule an effect; bad puts a value JSON cannot hold into its arguments',
    args: z.object({
      name: z.string(),
      args_json: z.string().describe('The arguments as JSON'),
      delay: z.number().optional(),
      bad: z.enum(['date', 'function', 'bigint', 'nan']).optional(),
    }),
    execute: async (state, args) => {
      const given = JSON.parse(args.args_json) as Record<string, unknown>;
      const odd = { date: new Date(0), function: () => 1, bigint: 1n, nan: Number.NaN };
      if (args.bad) given.odd = odd[args.bad];
      const id = await state.scheduleEffect(args.name, given, args.delay);
      return { status: 'success', result: id };
    },
  }),
  flood_effects: defineTool({
    description: 'Schedule the ping effect, an hour from now, again and again',
    args: z.object({ times: z.number() }),
    execute: async (state, args) => {
      for (let done = 0; done < args.times; done++) {
        try {
          await state.scheduleEffect('ping', {}, 3_600_000);
        } catch (error) {
          return { status: 'success', result: `refused after ${done}: ${(error as Error).message}` };
        }
      }
      return { status: 'success', result: `scheduled ${args.times}` };
    },
  }),
  ping_then_handoff: defineTool({
    description: 'Schedule the ping effect now, then hand the thread to the effects_reader agent',
    execute: async (state) => {
      await state.scheduleEffect('ping', {});
      await state.handoff('effects_reader');
      return { status: 'success', result: 'handed off' };
    },
  }),
  read_pings: defineTool({
    description: 'Say how many pings the thread has counted',
    execute: async (state) => ({ status: 'success', result: `pings: ${(await state.getValue('pings')) ?? 0}` }),
  }),
  list_effects: defineTool({
    description: 'List the scheduled effects',
    args: z.object({ name: z.string().optional() }),
    execute: async (state, args) => ({
      status: 'success',
      result: JSON.stringify(await state.getScheduledEffects(args.name)),
    }),
  }),
  remove_effect: defineTool({
    description: 'Cancel a scheduled effect',
    args: z.object({ id: z.string() }),
    execute: async (state, args) => ({ status: 'success', result: String(await state.removeScheduledEffect(args.id)) }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'effects',
    prompt: 'You schedule effects.',
    model: 'scripted',
    tools: ['schedule_effect', 'flood_effects', 'ping_then_handoff', 'list_effects', 'remove_effect'],
  }),
  definePrompt({ name: 'effects_reader', prompt: 'You read counts.', model: 'scripted', tools: ['read_pings'] }),
];

export const agents = [
  defineAgent({ name: 'effects_reader', sideA: { prompt: 'effects_reader' } }),
  defineAgent({
    name: 'effects',
    sideA: { prompt: 'effects' },
    variables: [TOKEN],
    permissions: [
      { permission: '*', pattern: '*', action: 'allow' },
      { permission: 'fs.write', pattern: '/forbidden/*', action: 'deny' },
    ],
  }),
];
