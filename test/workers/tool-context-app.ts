/**
 * Test agents for context a thread starts with (CTX-1): `ctx_profile` keeps a profile its
 * creator seeds and its `resolveContext` completes once (counting its runs in `seeds`);
 * `ctx_seed_metadata` tries to read a cloud metadata address while seeding, which the egress
 * policy refuses, so the turn fails naming the tool.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

const Profile = z.object({
  user: z.string().max(64).optional(),
  plan: z.enum(['free', 'pro']).optional(),
  seeds: z.number().int().optional(),
});

export const tools = {
  ctx_profile: defineTool({
    description: 'Show the profile this thread was started with',
    contextSchema: Profile,
    resolveContext: async (state) => ({
      seeds: (state.context.local.seeds ?? 0) + 1,
      plan: state.context.local.plan ?? 'free',
    }),
    execute: async (state) => {
      await state.setContext({ user: `${state.context.local.user ?? 'nobody'}!` });
      return { status: 'success', result: JSON.stringify(state.context.local) };
    },
  }),
  ctx_seed_metadata: defineTool({
    description: 'Seed a context from a metadata address',
    contextSchema: z.object({ region: z.string().optional() }),
    resolveContext: async () => {
      const answer = await fetch('http://169.254.169.254/latest/meta-data/placement/region');
      return { region: await answer.text() };
    },
    execute: async (state) => ({ status: 'success', result: JSON.stringify(state.context.local) }),
  }),
};

export const prompts = [
  definePrompt({ name: 'ctx_seeded', prompt: '', model: 'scripted', tools: ['ctx_profile'] }),
  definePrompt({ name: 'ctx_seed_metadata', prompt: '', model: 'scripted', tools: ['ctx_seed_metadata'] }),
];

export const agents = [
  defineAgent({ name: 'ctx_seeded', sideA: { prompt: 'ctx_seeded' } }),
  defineAgent({ name: 'ctx_seed_metadata', sideA: { prompt: 'ctx_seed_metadata' } }),
];
