/**
 * Prompt tools (SUB-1): a call runs the offered prompt inside the calling thread. Its messages are
 * stored one level deeper than the call (`depth`), with the calling step as `parent_id` and the
 * call's id as `metadata.prompt_call`, so they stay out of the parent's conversation yet can be read
 * through `GET .../messages?depth=`. Its tool calls pass through the same executor, guards and
 * journal as the parent's. The run is read back from those messages at every step, so a thread
 * restarted mid-run resumes it instead of starting over (THR-3).
 */
import type { AttachmentRef, Message, SubpromptConfig, ThreadState, ToolResult } from '../../spec/index.js';
import {
  budgetExceeded,
  buildModelMessages,
  flagOn,
  MAX_STEPS_CEILING,
  modelTools,
  pendingToolCalls,
  recordUsage,
  requestSettings,
  systemText,
  type TurnDeps,
  threadBudget,
  turnIdOf,
} from '../conversation/index.js';
import { callingStep, executeToolCalls, parsedArguments, STOPPED_MESSAGE, type ToolGuard } from '../execute/index.js';
import type { GuardSetup } from '../guards/index.js';
import { callStates } from '../guards/index.js';
import { NestedStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { attachedPaths, initialMessage } from '../registry/index.js';

/** How deep prompt tools may nest: a prompt offering itself would otherwise recurse without end. */
export const MAX_PROMPT_DEPTH = 4;

/** What nested runs share with the turn that started them. */
export interface NestedContext {
  deps: TurnDeps;
  guards: readonly ToolGuard[];
  /** The turn's rules and capabilities: nested calls are checked by them at run time too. */
  setup: GuardSetup;
}

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
    if (stat instanceof Error || !stat) {
      return `cannot attach "${path}": ${stat instanceof Error ? stat.message : 'no such file'}`;
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

async function runSubprompt(
  nested: NestedContext,
  promptName: string,
  config: SubpromptConfig,
  state: ThreadState,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const { deps } = nested;
  const { registry, emit, signal } = deps;
  const prompt = registry.prompt(promptName);
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
  if (store.messages().length === 0) {
    const files = await attachments(state, attachedPaths(config, args));
    if (typeof files === 'string') return { status: 'error', error: files };
    const note = files.length > 0 ? `\n\nAttached files:\n${files.map((file) => `- ${file.path}`).join('\n')}` : '';
    const first = store.append({
      role: 'user',
      content: initialMessage(prompt, config, args) + note,
      attachments: files.length > 0 ? files : null,
    });
    emit({ type: 'message', message: first });
  }
  const model = registry.model(prompt.model);
  const provider = deps.provider(model);
  const settings = requestSettings(model, prompt);
  const tools = bindSubprompts(
    registry.toolsFor(prompt.name).filter((tool) => flagOn(deps.variables, tool.enabledBy)),
    nested,
  );
  const toolMap = new Map(tools.map((tool) => [tool.name, tool]));
  const system = systemText(prompt, tools, registry.skills);
  const requestTools = modelTools(tools.filter((tool) => !tool.definition.deferred));
  const earlier = prompt.includeChat ? conversationBefore(deps.store.messages(), step) : [];
  const guards = [noWaitsInside, ...nested.guards];
  const scrub = deps.scrub ?? ((text: string) => text);

  for (;;) {
    if (signal.aborted) return { status: 'error', error: STOPPED_MESSAGE };
    const log = store.messages();
    const pending = pendingToolCalls(log, depth);
    const steps = log.filter((message) => message.role === 'assistant').length;
    if (pending.length > 0) {
      await executeToolCalls(pending, {
        tools: toolMap,
        store,
        files: deps.files,
        emit,
        guards,
        createState: callStates({
          createState: deps.createState,
          setup: nested.setup,
          store: deps.store,
          tools: toolMap,
          childAgents: registry.childAgentsOf(prompt.name, deps.agent.name),
        }),
        signal,
        stepCount: steps,
        side: state.execution?.currentSide ?? 'a',
        scrub,
        now: deps.now ?? Date.now,
      });
      continue;
    }
    const last = log[log.length - 1];
    if (last?.role === 'assistant') return subpromptResult(promptName, config, log, null);
    if (steps >= MAX_STEPS_CEILING) {
      return subpromptResult(promptName, config, log, `it reached the limit of ${MAX_STEPS_CEILING} model steps`);
    }
    // THR-4: a nested prompt spends from the same thread budget as its caller.
    const overBudget = budgetExceeded(deps.store, threadBudget(deps.agent.budget, deps.store));
    if (overBudget) return subpromptResult(promptName, config, log, overBudget);
    deps.onProgress?.();
    const messageId = crypto.randomUUID();
    let response: Awaited<ReturnType<typeof provider.complete>>;
    try {
      response = await provider.complete(
        {
          model: model.model ?? model.name,
          messages: buildModelMessages(prompt, [...earlier, ...log], undefined, system, (message) => !message.silent),
          tools: requestTools,
          toolChoice: requestTools.length > 0 ? prompt.toolChoice : undefined,
          parallelToolCalls: requestTools.length > 0 ? prompt.parallelToolCalls : undefined,
          ...(settings ? { settings } : {}),
          signal,
        },
        { onTextDelta: (delta) => emit({ type: 'message_delta', message_id: messageId, delta }) },
      );
    } catch (error) {
      if (signal.aborted) return { status: 'error', error: STOPPED_MESSAGE };
      return subpromptResult(promptName, config, log, scrub((error as Error).message));
    }
    const message = store.append({
      id: messageId,
      role: 'assistant',
      content: response.text === '' && response.toolCalls.length > 0 ? null : response.text,
      tool_calls: response.toolCalls.length > 0 ? response.toolCalls : null,
      metadata: { model: response.model, usage: response.usage, finish_reason: response.finishReason },
    });
    emit({ type: 'message', message });
    recordUsage(deps.store, emit, { usage: response.usage, model, messageId, turnId: turnIdOf(deps.store.messages()) });
  }
}

interface CallReport {
  name: string;
  arguments: unknown;
  status: 'success' | 'error';
  result?: string;
  error?: string;
}

/**
 * What the call returns, shaped by the SubpromptConfig: the final text (`includeTextResponse`), the
 * calls with their results (`includeToolCalls`), failed calls even without them (`includeErrors`),
 * and the files its tools produced, valid here since the run shares the thread's filesystem.
 */
export function subpromptResult(
  name: string,
  config: SubpromptConfig,
  log: readonly Message[],
  failure: string | null,
): ToolResult {
  const includeText = config.includeTextResponse ?? true;
  const includeCalls = config.includeToolCalls ?? false;
  const includeErrors = config.includeErrors ?? true;
  if (failure) {
    return {
      status: 'error',
      error: includeErrors ? `prompt "${name}" failed: ${failure}` : `prompt "${name}" failed`,
    };
  }
  const results = new Map(log.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m]));
  const calls: CallReport[] = log.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => {
      const result = results.get(call.id);
      const status = result?.tool_status === 'success' ? 'success' : 'error';
      const text = result?.content ?? '';
      return {
        name: call.function.name,
        arguments: parsedArguments(call.function.arguments),
        status,
        ...(status === 'success' ? { result: text } : { error: text }),
      };
    }),
  );
  const answer = [...log].reverse().find((m) => m.role === 'assistant')?.content ?? '';
  const files = log.filter((m) => m.role === 'tool').flatMap((m) => m.attachments ?? []);
  const shown = includeCalls
    ? calls.filter((call) => includeErrors || call.status === 'success')
    : calls.filter((call) => includeErrors && call.status === 'error');
  if (shown.length === 0) return { status: 'success', result: includeText ? answer : '', attachments: files };
  const report = { ...(includeText ? { response: answer } : {}), [includeCalls ? 'tool_calls' : 'errors']: shown };
  return { status: 'success', result: JSON.stringify(report), attachments: files };
}
