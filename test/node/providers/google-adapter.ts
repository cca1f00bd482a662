/**
 * The conformance suite's adapter for the Gemini provider: the local Gemini API server
 * (harness/google-server.mjs) speaking `streamGenerateContent?alt=sse` byte for byte, errors in
 * Google's `{ error: { code, message, status } }` body. Gemini sends each function call whole, its
 * arguments an object: a scripted call's arguments must be JSON.
 */
import { googleError, type StreamReply, startGoogleServer, streamFrames } from '../../../harness/google-server.mjs';
import { GoogleProvider } from '../../../src/providers/google/index.js';
import type { Answer, FailureStatus, ProviderAdapter, SentImage } from './adapter.js';
import { serverAdapter } from './server-adapter.js';

const MODEL = 'gemini-2.5-flash';

const CANONICAL_STATUS: Record<FailureStatus, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
};

function reply(answer: Answer): StreamReply {
  return {
    text: answer.text,
    functionCalls: answer.toolCalls?.map(({ id, name, arguments: args }) => ({ id, name, args: JSON.parse(args) })),
    chunkSize: answer.chunkSize,
    usage: answer.usage && {
      promptTokenCount: answer.usage.prompt,
      candidatesTokenCount: answer.usage.completion,
      totalTokenCount: answer.usage.total,
    },
    stallAfter: answer.stallAfterDeltas,
  };
}

export function googleAdapter(): ProviderAdapter {
  return serverAdapter({
    name: 'google',
    errorName: 'Gemini provider',
    model: MODEL,
    argumentsAsText: false,
    serverName: 'Gemini',
    startServer: startGoogleServer,
    provider: (server, options) =>
      new GoogleProvider({ baseURL: server.url, apiKey: 'AIza-test-conformance', ...options }),
    reply,
    errorBody: googleError,
    failureMessage: (status, message) => `Gemini provider answered ${status} ${CANONICAL_STATUS[status]}: ${message}`,
    frames: (answer) => streamFrames(reply(answer), {}, MODEL),
    imagesSent: (request) =>
      (request?.body?.contents ?? []).flatMap((content) =>
        (content.parts ?? []).flatMap((part): SentImage[] => (part.inlineData ? [part.inlineData] : [])),
      ),
    userTurnSent: (request) => request?.body?.contents?.[0]?.parts,
  });
}
