/**
 * The conformance suite's adapter for the Anthropic provider: the local Messages API server
 * (test/support/anthropic-server.ts, streaming harness/anthropic-events.mjs byte for byte), errors
 * in Anthropic's `{ type: 'error', error: { type, message } }` body.
 */
import { AnthropicProvider } from '../../../src/providers/anthropic/index.js';
import {
  type AnthropicServer,
  errorBody,
  frames,
  type StreamedReply,
  startAnthropicServer,
} from '../../support/anthropic-server.js';
import type { Answer, FailureStatus, ProviderAdapter, SentImage } from './adapter.js';
import { sourcedFetch } from './adapter.js';

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
  let server: AnthropicServer | undefined;
  const live = (): AnthropicServer => {
    if (!server) throw new Error('the Anthropic server is not started');
    return server;
  };
  return {
    name: 'anthropic',
    errorName: 'Anthropic provider',
    model: MODEL,
    asksForWaits: true,
    argumentsAsText: true,
    async start() {
      server = await startAnthropicServer();
    },
    close: () => live().close(),
    reset: () => live().reset(),
    provider: (options = {}, sources = []) =>
      new AnthropicProvider({
        baseURL: live().url,
        apiKey: 'sk-ant-test-conformance',
        sleep: async () => {},
        fetch: sourcedFetch(sources),
        ...options,
      }),
    answer: (...answers) => live().enqueue(...answers.map(reply)),
    fail(status, message, retryAfterSeconds) {
      live().enqueue({
        status,
        body: errorBody(ERROR_TYPES[status], message),
        ...(retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } }),
      });
    },
    failureMessage: (status, message) => `Anthropic provider answered ${status}: ${ERROR_TYPES[status]}: ${message}`,
    frames: (answer) => frames(reply(answer), MODEL),
    calls: () => live().requests.length,
    closedEarly: (index) => live().requests[index]?.closedEarly === true,
    imagesSent: (index) => {
      const messages: unknown = live().requests[index]?.body?.messages;
      return Array.isArray(messages) ? messages.flatMap((message) => imagesOf(message?.content)) : [];
    },
  };
}
