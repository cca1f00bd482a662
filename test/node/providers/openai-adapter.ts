/**
 * The conformance suite's adapter for the OpenAI-compatible provider: the local Chat Completions
 * server (harness/openai-server.mjs) speaking the protocol byte for byte, errors in OpenAI's
 * `{ error: { message, type } }` body.
 */
import {
  type OpenAIServer,
  type StreamReply,
  startOpenAIServer,
  streamFrames,
} from '../../../harness/openai-server.mjs';
import { OpenAIProvider } from '../../../src/providers/openai/index.js';
import type { Answer, FailureStatus, ProviderAdapter } from './adapter.js';
import { chatCompletionsImages, sourcedFetch } from './adapter.js';

const MODEL = 'gpt-4o-mini';

const ERROR_TYPES: Record<FailureStatus, string> = {
  400: 'invalid_request_error',
  403: 'permission_error',
  429: 'rate_limit_exceeded',
  503: 'server_error',
};

function reply(answer: Answer): StreamReply {
  return {
    text: answer.text,
    toolCalls: answer.toolCalls,
    chunkSize: answer.chunkSize,
    usage: answer.usage && {
      prompt_tokens: answer.usage.prompt,
      completion_tokens: answer.usage.completion,
      total_tokens: answer.usage.total,
    },
    // The role chunk is the first data event.
    stallAfter: answer.stallAfterDeltas === undefined ? undefined : answer.stallAfterDeltas + 1,
  };
}

export function openaiAdapter(): ProviderAdapter {
  let server: OpenAIServer | undefined;
  const live = (): OpenAIServer => {
    if (!server) throw new Error('the OpenAI-compatible server is not started');
    return server;
  };
  return {
    name: 'openai',
    errorName: 'OpenAI-compatible provider',
    model: MODEL,
    asksForWaits: true,
    argumentsAsText: true,
    async start() {
      server = await startOpenAIServer();
    },
    close: () => live().close(),
    reset: () => live().reset(),
    provider: (options = {}, sources = []) =>
      new OpenAIProvider({
        baseURL: live().baseURL,
        apiKey: 'sk-test-conformance',
        sleep: async () => {},
        fetch: sourcedFetch(sources),
        ...options,
      }),
    answer: (...answers) => live().enqueue(...answers.map(reply)),
    fail(status, message, retryAfterSeconds) {
      live().enqueue({
        status,
        body: { error: { message, type: ERROR_TYPES[status], param: null, code: null } },
        ...(retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } }),
      });
    },
    failureMessage: (status, message) => `OpenAI-compatible provider answered ${status}: ${message}`,
    frames: (answer) =>
      streamFrames(reply(answer), { model: MODEL, stream: true, stream_options: { include_usage: true } }),
    calls: () => live().requests.length,
    closedEarly: (index) => live().requests[index]?.closedEarly === true,
    imagesSent: (index) => chatCompletionsImages(live().requests[index]?.body?.messages),
  };
}
