/**
 * The conformance suite's adapter for the Anthropic provider: the local Messages API server
 * (test/support/anthropic-server.ts, streaming harness/anthropic-events.mjs byte for byte), errors
 * in Anthropic's `{ type: 'error', error: { type, message } }` body.
 */
import { AnthropicProvider } from '../../../src/providers/anthropic/index.js';
import { errorBody, frames, type StreamedReply, startAnthropicServer } from '../../support/anthropic-server.js';
import type { Answer, FailureStatus, ProviderAdapter, SentImage } from './adapter.js';
import { serverAdapter } from './server-adapter.js';

const MODEL = 'claude-sonnet-4-5';

const ERROR_TYPES: Record<FailureStatus, string> = {
  400: 'invalid_request_error',
  403: 'permission_error',
  429: 'rate_limit_error',
  503: 'api_error',
};

/** Events before the first text delta: message_start, ping, and the text block's start. */
const EVENTS_BEFORE_TEXT = 3;

function reply(answer: Answer): StreamedReply {
  return {
    text: answer.text,
    toolCalls: answer.toolCalls?.map(({ id, name, arguments: input }) => ({ id, name, input })),
    chunkSize: answer.chunkSize,
    ...(answer.usage
      ? { usage: { input_tokens: answer.usage.prompt }, outputUsage: { output_tokens: answer.usage.completion } }
      : {}),
    stallAfter: answer.stallAfterDeltas === undefined ? undefined : EVENTS_BEFORE_TEXT + answer.stallAfterDeltas,
  };
}

/** Image blocks, in user turns and inside tool results. */
function imagesOf(blocks: unknown): SentImage[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((block): SentImage[] => {
    if (block?.type === 'tool_result') return imagesOf(block.content);
    if (block?.type !== 'image' || block.source?.type !== 'base64') return [];
    return [{ mimeType: String(block.source.media_type), data: String(block.source.data) }];
  });
}

export function anthropicAdapter(): ProviderAdapter {
  return serverAdapter({
    name: 'anthropic',
    errorName: 'Anthropic provider',
    model: MODEL,
    argumentsAsText: true,
    serverName: 'Anthropic',
    startServer: startAnthropicServer,
    provider: (server, options) =>
      new AnthropicProvider({ baseURL: server.url, apiKey: 'sk-ant-test-conformance', ...options }),
    reply,
    errorBody: (status, message) => errorBody(ERROR_TYPES[status], message),
    failureMessage: (status, message) => `Anthropic provider answered ${status}: ${ERROR_TYPES[status]}: ${message}`,
    frames: (answer) => frames(reply(answer), MODEL),
    imagesSent: (request) => {
      const messages: unknown = request?.body?.messages;
      return Array.isArray(messages) ? messages.flatMap((message) => imagesOf(message?.content)) : [];
    },
    userTurnSent: (request) => request?.body?.messages?.[0]?.content,
  });
}
