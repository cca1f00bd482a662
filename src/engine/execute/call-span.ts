/**
 * The span of one tool call (TRACE-3): `execute_tool <tool>` beneath the step's turn (or the call
 * that invoked it, or the prompt tool running it), open from the call's checks to its stored
 * result, which it names. A call that waits for an answer ends its span as waiting; the call that
 * runs once answered is a span of the turn that resumes it.
 */
import type { Message, ToolCall } from '../../spec/index.js';
import { ATTR, activeSpan, type Span, spanNames } from '../tracing/index.js';

export function startCallSpan(call: ToolCall): Span {
  return activeSpan()
    .child(spanNames.tool(call.function.name), 'internal', {
      [ATTR.operation]: 'execute_tool',
      [ATTR.toolName]: call.function.name,
      [ATTR.toolCallId]: call.id,
      [ATTR.toolType]: 'function',
    })
    .content(ATTR.toolArguments, () => call.function.arguments);
}

/** Ends the call's span with its stored result, or as waiting for an answer when there is none yet. */
export function endCallSpan(span: Span, result: Message | 'waiting'): void {
  if (result === 'waiting') {
    span.set('standard_agents.waiting', true).end();
    return;
  }
  span.set(ATTR.message, result.id).content(ATTR.toolResult, () => result.content ?? '');
  if (result.tool_status === 'error') span.fail(result.content ?? 'the call failed', 'tool_error');
  else span.ok();
  span.end();
}
