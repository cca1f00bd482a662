/**
 * What the hooks change of one request (HOOK-8): tool calls a hook dropped leave the history, then
 * `filter_messages` gets the history the request is built from, `after_system_message` the rendered
 * system text, and `prefilter_llm_history` the provider-shaped messages just before they are sent.
 * All of it is for this request only: the stored log is never changed. A run with no hooks passes
 * through untouched (one lookup for dropped calls).
 */
import type { Message, ModelMessage } from '../../spec/index.js';
import { withoutDroppedCalls } from '../hooks/index.js';
import type { StepRequest, StepRun } from './step-types.js';

/** The history a request is built from: dropped calls out, then `filter_messages`. */
export async function requestHistory(run: StepRun, history: readonly Message[]): Promise<readonly Message[]> {
  const kept = withoutDroppedCalls(run.conversation.store, history);
  const { hooks } = run;
  if (!hooks?.has('filter_messages')) return kept;
  return hooks.filterMessages([...kept]);
}

/** The request with `after_system_message`'s text in place of the rendered system text. */
export async function requestWithSystem(run: StepRun, request: StepRequest): Promise<StepRequest> {
  const { hooks } = run;
  if (!hooks?.has('after_system_message')) return request;
  const original = request.system ?? '';
  const system = await hooks.systemMessage(original);
  if (system === original) return request;
  return { ...request, render: (history) => withSystem(request.render(history), original, system) };
}

function withSystem(messages: ModelMessage[], original: string, system: string): ModelMessage[] {
  const rest = original.trim() !== '' && messages[0]?.role === 'system' ? messages.slice(1) : messages;
  return system.trim() !== '' ? [{ role: 'system', content: system }, ...rest] : rest;
}

/** The messages sent, after `prefilter_llm_history`. */
export async function prefilteredMessages(run: StepRun, messages: ModelMessage[]): Promise<ModelMessage[]> {
  const { hooks } = run;
  return hooks?.has('prefilter_llm_history') ? hooks.prefilterHistory(messages) : messages;
}
