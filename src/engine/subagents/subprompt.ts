/**
 * Prompt tools (SUB-1): a call runs the offered prompt inside the calling thread. Its messages are
 * stored one level deeper than the call (`depth`), with the calling step as `parent_id` and the
 * call's id as `metadata.prompt_call`, so they stay out of the parent's conversation yet can be read
 * through `GET .../messages?depth=`. The run itself (nested-run.ts) takes its model steps as a
 * side's turn does and is resumed from its messages after a restart (THR-3).
 */
import type {
  AttachmentRef,
  Message,
  PromptDefinition,
  SubpromptConfig,
  ThreadState,
  ToolResult,
} from '../../spec/index.js';
import { flagOn, stepsThisTurn, turnIdOf } from '../conversation/index.js';
import { callingStep, type ToolGuard } from '../execute/index.js';
import { callStates, hookExecution, hookRunner } from '../guards/index.js';
import { NestedStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { attachedPaths, initialMessage } from '../registry/index.js';
import { buildModelMessages, modelTools, notSilent, requestSettings, systemText } from '../request/index.js';
import type { StepConversation } from '../step/index.js';
import { type NestedContext, type NestedRun, runNested } from './nested-run.js';

/** How deep prompt tools may nest: a prompt offering itself would otherwise recurse without end. */
export const MAX_PROMPT_DEPTH = 4;

/** A tool that waits for an answer would pause the parent's step from inside a tool call. */
const noWaitsInside: ToolGuard = (call) =>
  call.tool.definition.interaction
    ? { action: 'deny', reason: `"${call.tool.name}" waits for an answer, which a prompt tool cannot do` }
    : { action: 'allow' };

/** Gives every prompt tool among `tools` a body that runs its prompt nested in the thread (SUB-1). */
export function bindSubprompts(tools: readonly ResolvedTool[], nested: NestedContext): ResolvedTool[] {
  return tools.map((tool) => {
    const subprompt = tool.subprompt;
    if (!subprompt) return tool;
    const execute = (state: ThreadState, args?: Record<string, unknown>) =>
      runSubprompt(nested, subprompt.prompt.name, subprompt.config, state, args ?? {});
    return { ...tool, definition: { ...tool.definition, execute } as ResolvedTool['definition'] };
  });
}

/** The conversation the calling step belongs to, before it: what `includeChat` shows the sub-prompt. */
function conversationBefore(log: readonly Message[], step: Message): Message[] {
  const call = step.metadata?.prompt_call;
  return log.filter(
    (message) =>
      message.seq < step.seq &&
      message.depth === step.depth &&
      !message.silent &&
      message.metadata?.prompt_call === call,
  );
}

/** The files a call attaches, read through the calling state: its rules decide what it may attach. */
async function attachments(state: ThreadState, paths: readonly string[]): Promise<AttachmentRef[] | string> {
  const refs: AttachmentRef[] = [];
  for (const path of paths) {
    const stat = await state.statFile(path).catch((error: Error) => error);
    if (stat instanceof Error || !stat || stat.isDirectory) {
      const reason = stat instanceof Error ? stat.message : stat ? 'it is a directory' : 'no such file';
      return `cannot attach "${path}": ${reason}`;
    }
    refs.push({
      id: stat.path,
      type: 'file',
      path: stat.path,
      name: stat.name,
      mimeType: stat.mimeType,
      size: stat.size,
      ...(stat.width ? { width: stat.width, height: stat.height } : {}),
    });
  }
  return refs;
}

/** Stores the run's first user message, unless a restarted run has it already; an error when a file cannot be attached. */
async function startRun(
  nested: NestedContext,
  store: NestedStore,
  subprompt: { prompt: PromptDefinition; config: SubpromptConfig },
  state: ThreadState,
  args: Record<string, unknown>,
): Promise<ToolResult | null> {
  if (store.messages().length > 0) return null;
  const { prompt, config } = subprompt;
  const files = await attachments(state, attachedPaths(config, args));
  if (typeof files === 'string') return { status: 'error', error: files };
  const note = files.length > 0 ? `\n\nAttached files:\n${files.map((file) => `- ${file.path}`).join('\n')}` : '';
  const first = store.append({
    role: 'user',
    content: initialMessage(prompt, config, args) + note,
    attachments: files.length > 0 ? files : null,
  });
  nested.deps.emit({ type: 'message', message: first });
  return null;
}

async function runSubprompt(
  nested: NestedContext,
  promptName: string,
  config: SubpromptConfig,
  state: ThreadState,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const { deps } = nested;
  const prompt = deps.registry.prompt(promptName);
  const callId = state.execution?.toolCallId ?? '';
  const step = callingStep(deps.store.messages(), callId);
  if (!step) return { status: 'error', error: `prompt tool "${promptName}" has no calling step` };
  const depth = step.depth + 1;
  if (depth > MAX_PROMPT_DEPTH) {
    return { status: 'error', error: `prompt tools nest at most ${MAX_PROMPT_DEPTH} levels deep` };
  }
  const store = new NestedStore(deps.store, {
    depth,
    parentId: step.id,
    marker: 'prompt_call',
    call: callId,
    headless: true,
  });
  const refused = await startRun(nested, store, { prompt, config }, state, args);
  if (refused) return refused;
  const earlier = prompt.includeChat ? conversationBefore(deps.store.messages(), step) : [];
  const conversation: StepConversation = {
    store,
    depth,
    shown: notSilent,
    history: (own) => (earlier.length > 0 ? [...earlier, ...own] : own),
    // THR-4: a nested prompt spends from the same thread budget, and the same turn, as its caller.
    turnId: () => turnIdOf(deps.store.messages()),
  };
  return runNested(nestedRun(nested, prompt, config, conversation, state.execution?.currentSide ?? 'a'));
}

/** The nested run's tools (prompt tools among them bound in turn), guards and step settings. */
function nestedRun(
  nested: NestedContext,
  prompt: PromptDefinition,
  config: SubpromptConfig,
  conversation: StepConversation,
  side: 'a' | 'b',
): NestedRun {
  const { deps } = nested;
  const { registry } = deps;
  const model = registry.model(prompt.model);
  const tools = bindSubprompts(
    registry.toolsFor(prompt.name).filter((tool) => flagOn(deps.variables.values, tool.enabledBy)),
    nested,
  );
  const toolMap = new Map(tools.map((tool) => [tool.name, tool]));
  const system = systemText(prompt, tools, registry.skills);
  // HOOK-2: while the nested prompt runs, its hooks run (else the agent's).
  const steps = () => stepsThisTurn(conversation.store.messages(), conversation.depth);
  const running = deps.flow
    ? {
        flow: deps.flow,
        promptPath: [...(deps.promptPath ?? []), prompt.name],
        history: () => conversation.store.messages(),
      }
    : undefined;
  const hooks = hookRunner(deps, prompt, hookExecution(deps.signal, side, steps, running));
  return {
    name: prompt.name,
    config,
    side,
    tools: toolMap,
    guards: [noWaitsInside, ...nested.guards],
    createState: callStates({
      createState: nested.states,
      setup: nested.setup,
      store: deps.store,
      emit: deps.emit,
      tools: toolMap,
      childAgents: registry.childAgentsOf(prompt.name, deps.agent.name),
      hooks,
    }),
    step: {
      deps,
      conversation,
      prompt,
      model,
      provider: deps.provider(model),
      settings: requestSettings(model, prompt),
      hooks,
    },
    request: {
      tools: modelTools(tools.filter((tool) => !tool.definition.deferred)),
      system,
      render: (history) => buildModelMessages(prompt, history, undefined, system, notSilent),
    },
  };
}
