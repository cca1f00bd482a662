/**
 * An agent offered as a tool (SUB-2, SUB-3). With a SubagentToolConfig the call starts the agent in a
 * child thread, its own Durable Object. Blocking (the default), the call waits for the child's answer
 * up to the config's `waitTimeout` (WAIT-1); non-blocking, it
 * returns at once and the child's answer arrives later as a message to this thread. The config names
 * the arguments that carry the first message, the files handed over and the child's display name.
 */
import { z } from 'zod';
import type { AgentDefinition, AnyToolDefinition, SubagentToolConfig } from '../../spec/index.js';
import { defineInteractiveTool } from '../../spec/index.js';
import { childAnswerResult, waitCap } from './child-answer.js';
import { handoffTool } from './handoff-tool.js';

type AgentToolArgs = Record<string, unknown>;

function argumentsFor(config: SubagentToolConfig) {
  const shape: Record<string, z.ZodType> = {
    [config.initUserMessageProperty ?? 'message']: z.string().min(1).describe('The message that starts the subagent'),
  };
  if (config.initAttachmentsProperty) {
    shape[config.initAttachmentsProperty] = z
      .array(z.string())
      .default([])
      .describe('Paths of files the subagent receives copies of');
  }
  if (config.initAgentNameProperty) {
    shape[config.initAgentNameProperty] = z.string().min(1).max(128).describe('A name for this subagent instance');
  }
  return z.object(shape);
}

/**
 * The tool for an agent a prompt lists (SUB-2): listed by name alone, an `ai_human` agent is a
 * handoff and a `dual_ai` agent a blocking subagent; with a config (SUB-3), always a subagent.
 */
export function agentTool(agent: AgentDefinition, config: SubagentToolConfig | undefined): AnyToolDefinition {
  if (config) return subagentTool(agent, config);
  return agent.type === 'dual_ai' ? subagentTool(agent, { name: agent.name }) : handoffTool(agent);
}

function subagentTool(agent: AgentDefinition, config: SubagentToolConfig): AnyToolDefinition {
  const blocking = config.blocking ?? true;
  const messageOf = (args: AgentToolArgs) => String(args[config.initUserMessageProperty ?? 'message']);
  const filesOf = (args: AgentToolArgs) =>
    config.initAttachmentsProperty ? ((args[config.initAttachmentsProperty] as string[] | undefined) ?? []) : [];
  const nameOf = (args: AgentToolArgs) =>
    config.initAgentNameProperty ? (args[config.initAgentNameProperty] as string | undefined) : undefined;
  // SUB-5: scoped values reach the child as its variables, never through the arguments a model sees.
  const scoped = typeof config.immediate === 'object' ? (config.immediate.scopedEnv ?? []) : [];
  const scopedValues = (values: Readonly<Record<string, string>>) =>
    Object.fromEntries(scoped.flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]]])));
  return defineInteractiveTool({
    description: agent.toolDescription || `Start the ${agent.title} agent on a message and get its answer`,
    args: argumentsFor(config),
    acpKind: 'other',
    requires: config.initAttachmentsProperty ? { fs: { read: ['{workspace}/**'] } } : {},
    access: (args) => ({ subject: messageOf(args), read: filesOf(args) }),
    interaction: {
      begin: async (state, args) => {
        const name = nameOf(args);
        const child = await state.spawnChild({
          agent: agent.name,
          message: messageOf(args),
          files: filesOf(args),
          tags: name ? [`name:${name}`] : [],
          variables: scopedValues(state.tenvs),
          ...(blocking ? { reportTo: state.execution?.toolCallId } : { notify: true }),
        });
        if (!blocking) {
          return {
            status: 'success',
            result: `Started ${agent.name}${name ? ` "${name}"` : ''} in thread ${child.id}; its answer will arrive as a message.`,
          };
        }
        // WAIT-1: the wait ends at the config's cap (ten minutes by default) with the child left running.
        const cap = waitCap(config.waitTimeout);
        return {
          kind: 'subagent',
          payload: { child_id: child.id, agent: agent.name, ...(name ? { name } : {}), ...cap },
        };
      },
      complete: async (_state, _args, raw) => childAnswerResult(raw, `${agent.name} call`),
    },
  }) as AnyToolDefinition;
}
