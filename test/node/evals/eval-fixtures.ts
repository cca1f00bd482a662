/**
 * What the eval runner's Node tests share: messages shaped as the API returns them, a log built from
 * them the way the runner builds it, and a target that records a case's calls and answers with a log
 * of the test's making (the end-to-end test runs the real target against wrangler dev).
 */
import type { Message } from '../../../client/index.js';
import { finalTextOf, toolCallsOf } from '../../../evals/runner/api-target.js';
import type { CaseRecording, EvalTarget } from '../../../evals/runner/run-suite.js';
import type { EvalCase, EvalLog } from '../../../evals/runner/suite.js';

let seq = 0;

export function message(fields: Partial<Message> & Pick<Message, 'role'>): Message {
  seq += 1;
  return {
    id: `m${seq}`,
    seq,
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    created_at: seq,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: null,
    tool_status: null,
    attachments: null,
    envelope: null,
    ...fields,
  };
}

/** A user message, a call of `tool` with `args`, its result, and the final text. */
export function toolTurn(user: string, tool: string, args: unknown, result: string, final: string): Message[] {
  const id = `call-${tool}-${seq}`;
  return [
    message({ role: 'user', content: user }),
    message({
      role: 'assistant',
      tool_calls: [{ id, type: 'function', function: { name: tool, arguments: JSON.stringify(args) } }],
    }),
    message({ role: 'tool', content: result, tool_call_id: id, tool_status: 'success' }),
    message({ role: 'assistant', content: final }),
  ];
}

export function logOf(messages: Message[], tokens = 100, costUsd = 0): EvalLog {
  return {
    threadId: 'thread-1',
    agent: 'assistant',
    messages,
    finalText: finalTextOf(messages),
    toolCalls: toolCallsOf(messages),
    status: 'idle',
    usage: {
      input_tokens: tokens,
      output_tokens: 0,
      cached_tokens: 0,
      total_tokens: tokens,
      cost_usd: costUsd,
      steps: 1,
      unpriced_steps: 0,
    },
  };
}

/** A target answering each case with `answer(case)`; it keeps the cases it ran and the aborts it saw. */
export function fakeTarget(answer: (evalCase: EvalCase, signal: AbortSignal) => Promise<CaseRecording>) {
  const ran: EvalCase[] = [];
  const stopped: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const target: EvalTarget = {
    record: async (evalCase, signal, onThread) => {
      ran.push(evalCase);
      onThread(`thread-of-${evalCase.name}`);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      signal.addEventListener('abort', () => stopped.push(evalCase.name), { once: true });
      try {
        return await answer(evalCase, signal);
      } finally {
        running -= 1;
      }
    },
  };
  return { target, ran, stopped, mostAtOnce: () => mostAtOnce };
}
