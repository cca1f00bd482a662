/**
 * A scripted model that knows nothing but what it is told (CRED-1): the user's message names one
 * tool call to make; after that it acts only on the system prompt's credential routine and on the
 * "Credential hint" line of a tool error, both parsed from their text. Nothing in a test tells it
 * which variable to ask for or when to retry: without the routine and the hint it gives up.
 */
import type { ModelMessage, ScriptedReply, ScriptedRequest, ToolCall } from '@standardagents/spec';

/** The routine, as the system prompt states it: which tool refreshes the variables, and to retry once. */
const ROUTINE =
  /line "Credential hint: \.\.\. Variables to refresh: NAME, \.\.\."\. Call (\w+) for each variable that line names, then retry the failed tool call once/;
const HINT = /^Credential hint: .*Variables to refresh: ([A-Za-z0-9_, ]+)\./m;

const text = (content: ModelMessage['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((part) => ('text' in part ? part.text : '')).join('');

interface Step {
  call: ToolCall;
  result: string;
}

/** The calls made since the user's message, each with its result. */
function stepsSinceUser(messages: readonly ModelMessage[]): { task: string; steps: Step[] } {
  const start = messages.findLastIndex((message) => message.role === 'user');
  const results = new Map<string, string>();
  const calls: ToolCall[] = [];
  for (const message of messages.slice(start + 1)) {
    if (message.role === 'assistant') calls.push(...(message.tool_calls ?? []));
    if (message.role === 'tool') results.set(message.tool_call_id, text(message.content));
  }
  const steps = calls.map((call) => ({ call, result: results.get(call.id) ?? '' }));
  return { task: text(messages[start]?.content ?? ''), steps };
}

const again = (call: ToolCall): ScriptedReply => ({
  toolCalls: [{ name: call.function.name, arguments: call.function.arguments }],
});

export function followInstructions(request: ScriptedRequest): ScriptedReply {
  const system = request.messages.find((message) => message.role === 'system');
  const routine = ROUTINE.exec(text(system?.content ?? ''));
  const { task, steps } = stepsSinceUser(request.messages);
  // The task: {"call": {"name": ..., "arguments": {...}}}.
  if (steps.length === 0) {
    const { call } = JSON.parse(task) as { call: { name: string; arguments: Record<string, unknown> } };
    return { toolCalls: [call] };
  }
  const last = steps.at(-1) as Step;
  const failed = steps.filter((step) => step.result.startsWith('Error:') && step.call.function.name !== routine?.[1]);
  if (routine && last.call.function.name === routine[1]) {
    // A refresh: retry the failed call once, after every variable the hint named has been asked for.
    if (last.result.startsWith('Error:')) return { text: `gave up: ${last.result}` };
    const pending = steps
      .slice(steps.indexOf(failed.at(-1) as Step) + 1)
      .filter((s) => s.call.function.name === routine[1]);
    const hinted = HINT.exec((failed.at(-1) as Step).result)?.[1]?.split(/,\s*/) ?? [];
    if (pending.length < hinted.length) {
      return {
        toolCalls: [{ name: routine[1] as string, arguments: { name: hinted[pending.length], reason: 'refused' } }],
      };
    }
    return failed.length === 1 ? again((failed.at(-1) as Step).call) : { text: 'gave up: retried once already' };
  }
  if (!last.result.startsWith('Error:')) return { text: `done: ${last.result}` };
  const hint = HINT.exec(last.result);
  if (!routine || !hint || failed.length > 1) return { text: `gave up: ${last.result}` };
  const first = hint[1]?.split(/,\s*/)[0] as string;
  return { toolCalls: [{ name: routine[1] as string, arguments: { name: first, reason: 'the tool was refused' } }] };
}
