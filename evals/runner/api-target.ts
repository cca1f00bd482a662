/**
 * Cases run on a Worker through its API with the typed client: a headless thread of the case's
 * agent (nobody answers an eval, so a question or an approval fails at once and the model is told),
 * each message posted after the previous turn ended, then the log and usage read back. An aborted
 * case (its time limit) stops its thread.
 */
import { performance } from 'node:perf_hooks';
import { type Client, createClient, type Message } from '../../client/index.js';
import type { CaseRecording, EvalTarget } from './run-suite.js';
import type { EvalCase, EvalLog, RecordedToolCall } from './suite.js';
import { watchTurn } from './turn-end.js';

/** Every message of a thread, oldest first, page after page. */
export async function allMessages(client: Client, threadId: string): Promise<Message[]> {
  const messages: Message[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await client.messages.list(threadId, after === undefined ? {} : { after });
    messages.push(...page.messages);
    if (page.next_after === null || page.messages.length === 0) return messages;
    after = page.next_after;
  }
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function toolCallsOf(messages: Message[]): RecordedToolCall[] {
  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m]));
  return messages.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: parsedArguments(call.function.arguments),
      result: results.get(call.id) ?? null,
    })),
  );
}

/** The last top-level assistant text after the last top-level user message, or ''. */
export function finalTextOf(messages: Message[]): string {
  let text = '';
  for (const message of messages) {
    if (message.depth !== 0) continue;
    if (message.role === 'user') text = '';
    else if (message.role === 'assistant' && typeof message.content === 'string' && message.content.trim() !== '') {
      text = message.content;
    }
  }
  return text;
}

async function turn(client: Client, threadId: string, content: string, signal: AbortSignal): Promise<number> {
  const { last_frame_seq } = await client.threads.get(threadId);
  const watch = watchTurn(client, threadId, last_frame_seq, signal);
  try {
    const started = performance.now();
    await client.messages.post(threadId, { content });
    await watch.ended;
    return performance.now() - started;
  } finally {
    watch.close();
  }
}

async function record(client: Client, evalCase: EvalCase, signal: AbortSignal, onThread: (id: string) => void) {
  const thread = await client.threads.create({
    agent: evalCase.agent,
    variables: evalCase.variables ?? {},
    headless: true,
    tags: ['eval'],
  });
  onThread(thread.id);
  const turnMs: number[] = [];
  try {
    for (const content of evalCase.messages) turnMs.push(await turn(client, thread.id, content, signal));
  } catch (error) {
    if (signal.aborted) await client.threads.stop(thread.id).catch(() => undefined);
    throw error;
  }
  const messages = await allMessages(client, thread.id);
  const details = await client.threads.get(thread.id);
  const log: EvalLog = {
    threadId: thread.id,
    agent: evalCase.agent,
    messages,
    finalText: finalTextOf(messages),
    toolCalls: toolCallsOf(messages),
    status: details.status,
    usage: details.usage.thread,
  };
  return { log, turnMs } satisfies CaseRecording;
}

export function apiTarget(baseUrl: string, apiKey: string): EvalTarget & { client: Client } {
  const client = createClient({ baseUrl, apiKey });
  return { client, record: (evalCase, signal, onThread) => record(client, evalCase, signal, onThread) };
}
