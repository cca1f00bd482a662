/**
 * Test agents for the state's resources, variables and family (TS-40 to TS-56,
 * test/workers/family.test.ts): a parent whose tools start a child, read and act on it through
 * `getChildThread`, set variables with `setEnv` and load definitions; a child whose tool reads its
 * parent through `getParentThread` and tries what a child may not do to it. The child's agent
 * denies writes under `/locked/`, which its parent's state over it must obey too.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineThreadEndpoint, defineTool, type ThreadState } from '../../src/index.js';
import { jsonResult, refusal } from '../support/tool-outcomes.js';

/** How many messages `getMessages` shows of the thread. */
async function messageCount(state: ThreadState): Promise<number> {
  return (await state.getMessages()).messages.length;
}

export const tools = {
  family_spawn: defineTool({
    description: 'Start a child thread on a message',
    args: z.object({ message: z.string() }),
    execute: async (state, args) => {
      await state.setValue('plan', 'the family plan');
      const { id } = await state.spawnChild({ agent: 'family_child', message: args.message });
      return jsonResult({ id });
    },
  }),
  family_inspect: defineTool({
    description: "Read the first child and act on it through the parent's state",
    execute: async (state) => {
      const entry = state.children[0];
      if (!entry) return jsonResult({ error: 'no child' });
      const child = await state.getChildThread(entry.reference);
      if (!child) return jsonResult({ error: 'no child state' });
      const wrote = await refusal(() => child.writeFile('/from-parent/note.txt', 'hello child'));
      const locked = await refusal(() => child.writeFile('/locked/x.txt', 'past the rules'));
      await child.setValue('note', 'set by the parent');
      const note = new TextDecoder().decode((await child.readFile('/from-parent/note.txt')) ?? new Uint8Array());
      const agent = await child.loadAgent<{ name: string }>('family_child');
      return jsonResult({
        entry,
        child: { threadId: child.threadId, agentId: child.agentId, execution: child.execution },
        childMessages: await messageCount(child),
        childValue: await child.getValue('note'),
        wrote,
        note,
        locked,
        loaded: agent.name,
        names: child.getAgentNames().includes('family_child'),
        env: await refusal(() => child.env('SHARED_MODE')),
        invoke: await refusal(() => child.invokeTool('family_read_env', { name: 'X' })),
        grandchild: await refusal(() => child.getChildThread('anything')),
      });
    },
  }),
  family_outsider: defineTool({
    description: 'Try to reach a thread that is not a child',
    args: z.object({ id: z.string() }),
    execute: async (state, args) =>
      jsonResult({ state: (await state.getChildThread(args.id)) === null ? null : 'got' }),
  }),
  family_set_env: defineTool({
    description: 'Set a variable of the thread from two parts, and show what the thread then sees',
    args: z.object({
      name: z.string(),
      head: z.string(),
      tail: z.string(),
      type: z.enum(['text', 'secret']).optional(),
    }),
    execute: async (state, args) => {
      const value = args.head + args.tail;
      const set = await refusal(() => state.setEnv(args.name, value, args.type ? { type: args.type } : undefined));
      if (set !== 'done') return jsonResult({ set });
      // Every way out of the thread: each must hide a secret set just now.
      state.emit('env_echo', { value });
      await state.writeFile('/echo/env.txt', value);
      await state.setValue('echo', value);
      return jsonResult({
        set,
        env: (await state.env(args.name)) === value,
        tenvs: state.tenvs[args.name] === value,
        type: await state.envType(args.name),
        echo: value,
      });
    },
  }),
  family_read_env: defineTool({
    description: 'Read a variable of this thread',
    args: z.object({ name: z.string() }),
    execute: async (state, args) =>
      jsonResult({
        name: args.name,
        value: await refusal(() => state.env(args.name)).then((message) =>
          message === 'done' ? state.tenvs[args.name] : message,
        ),
        type: await state.envType(args.name),
      }),
  }),
  family_set_status: defineTool({
    description: "Show a status as this thread's in its parent's children",
    args: z.object({ status: z.string() }),
    execute: async (state, args) => {
      await state.setStatus(args.status);
      return jsonResult({ set: args.status });
    },
  }),
  family_read_parent: defineTool({
    description: "Read the parent thread through the child's state",
    execute: async (state) => {
      const parent = await state.getParentThread();
      if (!parent) return jsonResult({ error: 'no parent' });
      return jsonResult({
        parent: { threadId: parent.threadId, agentId: parent.agentId, execution: parent.execution },
        children: parent.children.length,
        plan: await parent.getValue('plan'),
        messages: await messageCount(parent),
        writeFile: await refusal(() => parent.writeFile('/from-child.txt', 'x')),
        setValue: await refusal(() => parent.setValue('plan', 'changed by the child')),
        setEnv: await refusal(() => parent.setEnv('SHARED_MODE', 'child-set', { type: 'text' })),
        inject: await refusal(() => parent.injectMessage({ role: 'user', content: 'from the child' })),
        env: await refusal(() => parent.env('SHARED_MODE')),
        fetch: await refusal(() => parent.fetch('https://example.com/')),
        spawn: await refusal(() => parent.spawnChild({ agent: 'family_child', message: 'x' })),
        models: parent.getModelNames().length > 0,
      });
    },
  }),
};

export const prompts = [
  definePrompt({
    name: 'family_parent',
    prompt: 'You lead a family of threads.',
    model: 'scripted',
    // Offered as an agent tool: what the parent's state.spawnChild may start (SUB-2).
    tools: ['family_spawn', 'family_inspect', 'family_outsider', 'family_set_env', 'family_read_env', 'family_child'],
  }),
  definePrompt({
    name: 'family_child',
    prompt: 'You help your parent.',
    model: 'scripted',
    tools: ['family_read_parent', 'family_read_env', 'family_set_status'],
  }),
];

export const agents = [
  defineAgent({ name: 'family_parent', sideA: { prompt: 'family_parent' } }),
  defineAgent({
    name: 'family_child',
    toolDescription: 'Helps its parent',
    exposeAsTool: true,
    sideA: { prompt: 'family_child' },
    permissions: [
      { permission: '*', pattern: '*', action: 'allow' },
      { permission: 'fs.write', pattern: '/locked/**', action: 'deny' },
    ],
  }),
];

/**
 * A thread endpoint with the same members (application code at rest): it loads a definition and
 * stores a secret with `setEnv`, which its state then reads.
 */
export const endpoints = {
  'family/env.post': defineThreadEndpoint(async (request, state) => {
    const { name, value } = (await request.json()) as { name: string; value: string };
    await state.setEnv(name, value, { type: 'secret' });
    const agent = await state.loadAgent<{ name: string }>(state.agentId);
    return Response.json({
      agent: agent.name,
      models: state.getModelNames().length > 0,
      type: await state.envType(name),
      seen: (await state.env(name)) === value,
    });
  }),
};
