/**
 * The conformance suite's adapter for the Workers AI provider: the stub binding
 * (harness/workers-ai-stub.mjs) answering as `env.AI.run` does, in the native shape. The binding
 * reports no HTTP status: a failure is thrown with Workers AI's internal code for it (a 5xx from
 * upstream carries none, only its text), and it cannot ask for a wait.
 */
import {
  type AnswerReply,
  createWorkersAIStub,
  streamFrames,
  type WorkersAIStub,
} from '../../../harness/workers-ai-stub.mjs';
import { type WorkersAIBinding, WorkersAIProvider } from '../../../src/providers/workers-ai/index.js';
import type { Answer, BodySource, FailureStatus, ProviderAdapter } from './adapter.js';
import { chatCompletionsImages } from './adapter.js';

const MODEL = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';

/** What the binding throws for each failure: `<internal code>: <description>`, or an upstream status. */
const THROWN: Record<FailureStatus, (message: string) => string> = {
  400: (message) => `5004: ${message}`,
  403: (message) => `3023: ${message}`,
  429: (message) => `3040: ${message}`,
  503: (message) => `503 Service Unavailable: ${message}`,
};

function reply(answer: Answer): AnswerReply {
  return {
    text: answer.text,
    toolCalls: answer.toolCalls,
    chunkSize: answer.chunkSize,
    usage: answer.usage && {
      prompt_tokens: answer.usage.prompt,
      completion_tokens: answer.usage.completion,
      total_tokens: answer.usage.total,
    },
    stallAfter: answer.stallAfterDeltas,
  };
}

/** A binding whose first calls are answered by `sources`, the later ones by `stub`. */
function sourcedBinding(stub: WorkersAIStub, sources: BodySource[]): WorkersAIBinding {
  let next = 0;
  return {
    run: async (model, inputs, options) => {
      const source = sources[next++];
      return source ? source() : stub.run(model, inputs, options);
    },
  };
}

export function workersAIAdapter(): ProviderAdapter {
  const stub = createWorkersAIStub();
  return {
    name: 'workers-ai',
    errorName: 'Workers AI binding',
    model: MODEL,
    asksForWaits: false,
    argumentsAsText: true,
    start: async () => {},
    close: async () => {},
    reset: () => stub.reset(),
    provider: (options = {}, sources = []) =>
      new WorkersAIProvider({ binding: sourcedBinding(stub, sources), sleep: async () => {}, ...options }),
    answer: (...answers) => stub.enqueue(...answers.map(reply)),
    fail: (status, message) => stub.enqueue({ throws: THROWN[status](message) }),
    failureMessage: (status, message) => `Workers AI binding failed for ${MODEL}: ${THROWN[status](message)}`,
    frames: (answer) => streamFrames(reply(answer), MODEL),
    calls: () => stub.calls.length,
    closedEarly: (index) => stub.calls[index]?.cancelled === true,
    imagesSent: (index) => chatCompletionsImages(stub.calls[index]?.inputs.messages),
    userTurnSent: (index) => {
      const messages = stub.calls[index]?.inputs.messages as { role: string; content: unknown }[] | undefined;
      return messages?.find((message) => message.role === 'user')?.content;
    },
  };
}
