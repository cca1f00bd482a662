/**
 * One MCP tool per agent of the application (THR-5): the call starts a thread of the caller with the
 * message, or posts it to one of the caller's threads (`thread_id`), follows the turn to its end
 * (turn-follower.ts) and answers with the agent's final text and the thread id (turn-result.ts).
 * Threads are started and messages posted through the same code as `POST /api/threads` and
 * `POST /api/threads/:id/messages`, so the API's checks apply unchanged (VAR-2, THR-6).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentDefinition, Message, OnBusy } from '../../spec/index.js';
import { HUMAN_INTERACTIONS, missingVariables } from '../../spec/internal.js';
import { threadStub } from '../../thread/bindings/index.js';
import { MessageText, PostMessageBody, unwrap } from '../contract/index.js';
import { threadId as parseThreadId, startThread, withTurnSlot } from '../routes/index.js';
import { asToolResult, errorResult, type McpCallContext, stopThread } from './call-context.js';
import { type InFlightCall, registerCall } from './cancellations.js';
import { progressReporter, type ToolCallExtra } from './progress.js';
import { agentToolNames } from './tool-names.js';
import { followTurn } from './turn-follower.js';
import { AgentAnswer, describeWaits, turnResult } from './turn-result.js';

const AgentToolInput = z
  .object({
    message: MessageText.describe('The message to the agent'),
    thread_id: z
      .string()
      .optional()
      .describe('Continue this thread of yours (the thread_id of an earlier answer) instead of starting a new one'),
    variables: z
      .record(z.string(), z.string())
      .optional()
      .describe("Values of the agent's variables; only for a new thread"),
    on_busy: PostMessageBody.shape.on_busy.describe(
      "With thread_id, if a turn of that thread is running: enqueue (wait for it), reject (refuse), interrupt (stop it at its next safe point and run) or rollback (interrupt it and undo its messages and files). Default: the agent's",
    ),
  })
  .strict();
type AgentToolInput = z.infer<typeof AgentToolInput>;

/** Where the turn to follow starts: the thread, its last frame before the message, and the message. */
interface StartedTurn {
  kind: 'started';
  threadId: string;
  after: number;
  isOurs(message: Message): boolean;
}

/** At most this many of an agent's tools are named in its description. */
const LISTED_TOOLS = 20;

/**
 * What the agent is for (its own tool description, else its prompt's), which tools it has and which
 * variables a new thread needs: what `GET /api/agents` shows, never the system prompt's text.
 */
function description(context: McpCallContext, agent: AgentDefinition): string {
  const { registry } = context;
  const prompt = registry.prompt(agent.sideA.prompt);
  const about = agent.toolDescription || prompt.toolDescription || `Talk to the ${agent.title} agent.`;
  const tools = registry.toolsFor(prompt.name).map((tool) => tool.name);
  const more = tools.length > LISTED_TOOLS ? ` and ${tools.length - LISTED_TOOLS} more` : '';
  const toolLine = tools.length > 0 ? ` Its tools: ${tools.slice(0, LISTED_TOOLS).join(', ')}${more}.` : '';
  const required = missingVariables(registry.variablesFor(agent), {});
  const variables = required.length > 0 ? ` A new thread needs the variables ${required.join(', ')}.` : '';
  return `${about}\n\nSends the message to the ${agent.name} agent, in a new thread of yours or in thread_id, and answers with its final text and the thread id.${toolLine}${variables}`;
}

/** The caller's trace context, as MCP carries it (`params._meta.traceparent`); malformed ones are ignored later. */
function traceparentOf(extra: ToolCallExtra): string | undefined {
  const value = (extra._meta as Record<string, unknown> | undefined)?.traceparent;
  return typeof value === 'string' ? value : undefined;
}

async function startNew(
  context: McpCallContext,
  agent: AgentDefinition,
  input: AgentToolInput,
  traceparent: string | undefined,
): Promise<StartedTurn> {
  const details = await startThread(
    context.env,
    context.registry,
    context.principal,
    {
      agent: agent.name,
      messages: [{ role: 'user', content: input.message }],
      variables: input.variables ?? {},
      tags: ['mcp'],
      headless: false,
      shared: false,
      permissions: [],
    },
    traceparent,
  );
  // The thread's log starts with the one user message this call brought.
  return { kind: 'started', threadId: details.id, after: 0, isOurs: (message) => message.role === 'user' };
}

function refused(message: string) {
  return { kind: 'refused', result: errorResult(message) } as const;
}

/** Posts to the caller's thread, or answers why not (an error result) without posting. */
async function continueThread(
  context: McpCallContext,
  agent: AgentDefinition,
  input: AgentToolInput & { thread_id: string },
  traceparent: string | undefined,
): Promise<StartedTurn | { kind: 'refused'; result: CallToolResult }> {
  const { env, principal } = context;
  const id = parseThreadId(input.thread_id);
  if (input.variables !== undefined) {
    return refused('variables apply to a new thread only: leave them out with thread_id');
  }
  const stub = threadStub(env, id);
  const details = unwrap(await stub.describe(principal, id));
  if (details.agent !== agent.name) {
    const tool = agentToolNames(context.registry).get(details.agent) ?? details.agent;
    return refused(`thread ${id} belongs to the ${details.agent} agent: continue it with the ${tool} tool`);
  }
  const human = details.waiting_for.filter((wait) => HUMAN_INTERACTIONS.includes(wait.kind));
  if (human.length > 0) {
    // Posting would only queue the message behind a wait the caller cannot answer with a message.
    return refused(
      `thread ${id} waits for a human, and a message does not answer it; nothing was posted:\n${describeWaits(id, human)}`,
    );
  }
  // IDN-5: the message starts a turn, which takes a slot first, as over HTTP.
  const posted = await withTurnSlot(env, principal, id, async () =>
    unwrap(
      await stub.postMessage(principal, id, {
        content: input.message,
        ...(input.on_busy ? { onBusy: input.on_busy as OnBusy } : {}),
        ...(traceparent ? { traceparent } : {}),
      }),
    ),
  );
  return {
    kind: 'started',
    threadId: id,
    after: details.last_frame_seq,
    isOurs: (message) => message.id === posted.messageId,
  };
}

/**
 * Stops the turn when the client cancels the call: through `extra.signal` (a cancellation this
 * server saw), or a cancellation that arrived in another request before the thread existed.
 */
function stopOnCancel(context: McpCallContext, call: InFlightCall, threadId: string, signal: AbortSignal) {
  const onAbort = () => {
    call.cancelled ??= 'cancelled by the client';
    stopThread(context, threadId);
  };
  if (call.cancelled !== null || signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

async function callAgent(
  context: McpCallContext,
  agent: AgentDefinition,
  input: AgentToolInput,
  extra: ToolCallExtra,
): Promise<CallToolResult> {
  const { call, release } = registerCall(context.principal, extra.requestId);
  const progress = progressReporter(extra);
  try {
    return await asToolResult(async () => {
      const started =
        input.thread_id === undefined
          ? await startNew(context, agent, input, traceparentOf(extra))
          : await continueThread(context, agent, { ...input, thread_id: input.thread_id }, traceparentOf(extra));
      if (started.kind === 'refused') return started.result;
      call.threadId = started.threadId;
      progress.note(`thread ${started.threadId}`);
      const dispose = stopOnCancel(context, call, started.threadId, extra.signal);
      const end = await followTurn({
        env: context.env,
        principal: context.principal,
        threadId: started.threadId,
        after: started.after,
        isOurs: started.isOurs,
        onFrame: (frame) => progress.frame(frame),
        deadlineMs: context.turnWaitMs,
      }).finally(dispose);
      const waits = end.kind === 'ended' && (end.status === 'waiting' || end.status === 'awaiting_hitl');
      const details = waits
        ? unwrap(await threadStub(context.env, started.threadId).describe(context.principal, started.threadId))
        : null;
      const seconds = Math.round(context.turnWaitMs / 1000);
      return turnResult(started.threadId, end, details, call.cancelled !== null, seconds);
    });
  } finally {
    release();
    await progress.flush();
  }
}

export function registerAgentTools(server: McpServer, context: McpCallContext): void {
  const names = agentToolNames(context.registry);
  for (const agent of context.registry.agents.values()) {
    server.registerTool(
      names.get(agent.name) ?? agent.name,
      {
        title: agent.title,
        description: description(context, agent),
        inputSchema: AgentToolInput,
        outputSchema: AgentAnswer,
      },
      (input, extra) => callAgent(context, agent, input, extra),
    );
  }
}
