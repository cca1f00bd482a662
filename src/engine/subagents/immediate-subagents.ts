/**
 * Immediate subagents (SUB-3): an agent tool marked `immediate` is called by the runtime as soon as
 * its prompt becomes active, before the prompt's first model step. The call is stored as an
 * assistant step of its own (`metadata.immediate`), so it runs through the executor like any call,
 * shows in the log, and is never made twice: the thread remembers which prompts started theirs.
 *
 * Its arguments come from the thread's variables named by the object form: `descriptionEnv` (the
 * task, else the user message that activated the prompt) and `nameEnv` (the instance's name). They
 * are the only per-instance values a model may see (SUB-5); `scopedEnv` values go to the child
 * through the tool, never through its arguments.
 */
import type { Message, ToolCall } from '../../spec/index.js';
import { lastUserIndex } from '../conversation/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { ImmediateStart, ResolvedTool } from '../registry/index.js';

const STARTED_KEY = 'immediate_started';

function activatingMessage(log: readonly Message[]): string {
  return log[lastUserIndex(log)]?.content ?? '';
}

function argumentsFor(
  tool: ResolvedTool & { immediate: ImmediateStart },
  variables: Readonly<Record<string, string>>,
  log: readonly Message[],
): Record<string, string> {
  const { immediate } = tool;
  const described = immediate.descriptionEnv ? variables[immediate.descriptionEnv] : undefined;
  const args: Record<string, string> = { [immediate.messageProperty]: described || activatingMessage(log) };
  if (immediate.nameProperty) {
    args[immediate.nameProperty] = (immediate.nameEnv ? variables[immediate.nameEnv] : undefined) || tool.name;
  }
  return args;
}

/**
 * Stores the step that starts the prompt's immediate subagents not started yet; returns whether it
 * stored one. Called when the prompt is about to make a model step.
 */
export function startImmediateSubagents(
  promptName: string,
  tools: readonly ResolvedTool[],
  store: ThreadStore,
  variables: Readonly<Record<string, string>>,
  emit: FrameSink,
): boolean {
  const started = new Set((store.getValue(STARTED_KEY) as string[] | undefined) ?? []);
  const due = tools.filter(
    (tool): tool is ResolvedTool & { immediate: ImmediateStart } =>
      tool.immediate !== undefined && !started.has(`${promptName}/${tool.name}`),
  );
  if (due.length === 0) return false;
  const log = store.messages();
  const calls: ToolCall[] = due.map((tool) => ({
    id: `call_${crypto.randomUUID().replaceAll('-', '')}`,
    type: 'function',
    function: { name: tool.name, arguments: JSON.stringify(argumentsFor(tool, variables, log)) },
  }));
  // The mark and the step are written together: a restart neither loses nor repeats the start.
  store.setValue(STARTED_KEY, [...started, ...due.map((tool) => `${promptName}/${tool.name}`)]);
  const step = store.append({ role: 'assistant', content: null, tool_calls: calls, metadata: { immediate: true } });
  emit({ type: 'message', message: step });
  return true;
}
