/**
 * The conformance suite's adapter for the OpenAI-compatible provider: the local Chat Completions
 * server (harness/openai-server.mjs) speaking the protocol byte for byte, errors in OpenAI's
 * `{ error: { message, type } }` body.
 */
import { type StreamReply, startOpenAIServer, streamFrames } from '../../../harness/openai-server.mjs';
import { OpenAIProvider } from '../../../src/providers/openai/index.js';
import type { Answer, FailureStatus, ProviderAdapter } from './adapter.js';
import { chatCompletionsImages } from './adapter.js';
import { serverAdapter } from './server-adapter.js';

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
  return serverAdapter({
    name: 'openai',
    errorName: 'OpenAI-compatible provider',
    model: MODEL,
    argumentsAsText: true,
    serverName: 'OpenAI-compatible',
    startServer: startOpenAIServer,
    provider: (server, options) =>
      new OpenAIProvider({ baseURL: server.baseURL, apiKey: 'sk-test-conformance', ...options }),
    reply,
    errorBody: (status, message) => ({ error: { message, type: ERROR_TYPES[status], param: null, code: null } }),
    failureMessage: (status, message) => `OpenAI-compatible provider answered ${status}: ${message}`,
    frames: (answer) =>
      streamFrames(reply(answer), { model: MODEL, stream: true, stream_options: { include_usage: true } }),
    imagesSent: (request) => chatCompletionsImages(request?.body?.messages),
    userTurnSent: (request) => request?.body?.messages?.find((message) => message.role === 'user')?.content,
  });
}
