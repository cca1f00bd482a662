/**
 * The lifecycle tools of resumable subagents (SUB-4), injected by the runtime into a prompt that
 * offers resumable agents, and only there. `subagent_create` starts a named instance in a child
 * thread and returns at once; `subagent_message` sends an instance another message, delivered to the
 * side its config names. With `implicit` parent communication each answer an instance ends a session
 * with comes back to this thread as a message; with `explicit`, only what its tools send through
 * `state.notifyParent()`.
 */
import { z } from 'zod';
import { flagOn } from '../../engine/conversation/index.js';
import type { ResumableSubagent } from '../../engine/registry/index.js';
import type { AnyToolDefinition } from '../../spec/index.js';
import { defineTool } from '../../spec/index.js';

function createTool(subagents: readonly ResumableSubagent[]): AnyToolDefinition {
  const names = subagents.map((entry) => entry.agent.name) as [string, ...string[]];
  const byName = new Map(subagents.map((entry) => [entry.agent.name, entry]));
  const agentsList = subagents
    .map((entry) => `${entry.agent.name}${entry.agent.toolDescription ? ` (${entry.agent.toolDescription})` : ''}`)
    .join(', ');
  return defineTool({
    description: `Start a named, long-lived subagent instance of ${agentsList}`,
    args: z.object({
      agent: z.enum(names).describe('The agent to start'),
      name: z.string().trim().min(1).max(128).describe('A unique name for this instance'),
      message: z.string().min(1).describe('The first message the instance receives'),
      files: z.array(z.string()).default([]).describe('Paths of files the instance receives copies of'),
    }),
    acpKind: 'other',
    requires: { fs: { read: ['{workspace}/**'] } },
    access: (args) => ({ subject: args.name, read: args.files }),
    execute: async (state, args) => {
      const entry = byName.get(args.agent);
      if (!entry) return { status: 'error', error: `unknown agent "${args.agent}"` };
      const { config } = entry;
      if (!flagOn(state.tenvs, config.optional)) {
        return { status: 'error', error: `${args.agent} is not enabled in this thread (${config.optional} is off)` };
      }
      const resumable = config.resumable;
      const child = await state.spawnChild({
        agent: args.agent,
        message: args.message,
        files: args.files,
        tags: [`name:${args.name}`],
        notify: (resumable.parentCommunication ?? 'implicit') === 'implicit',
        instance: {
          name: args.name,
          receives: resumable.receives_messages === 'side_b' ? 'b' : 'a',
          ...(resumable.maxInstances !== undefined ? { maxInstances: resumable.maxInstances } : {}),
        },
      });
      return {
        status: 'success',
        result: `Started ${args.agent} "${args.name}" in thread ${child.id}. Message it with subagent_message; its answers arrive as messages.`,
      };
    },
  }) as unknown as AnyToolDefinition;
}

const messageTool = defineTool({
  description: 'Send a message to a named subagent instance of this thread',
  args: z.object({
    name: z.string().trim().min(1).describe('The name the instance was created with'),
    message: z.string().min(1).describe('The message to send'),
  }),
  acpKind: 'other',
  execute: async (state, args) => {
    const child = await state.messageChild(args.name, args.message);
    return { status: 'success', result: `Sent to "${args.name}" (thread ${child.id}).` };
  },
}) as unknown as AnyToolDefinition;

export function subagentLifecycleTools(subagents: readonly ResumableSubagent[]) {
  return [
    { name: 'subagent_create', definition: createTool(subagents) },
    { name: 'subagent_message', definition: messageTool, needsInstances: true },
  ];
}
