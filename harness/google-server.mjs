/**
 * A local Gemini API server for tests and benchmarks: tests never call a real model, yet the Google
 * provider must meet the protocol exactly as Gemini speaks it. So this answers
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` with the bytes Gemini sends: one
 * `data: <GenerateContentResponse>` event per chunk, each ended by CRLF CRLF, JSON written the way
 * Google's servers write it (`{"key": value,"next": value}`), text in small pieces, function calls
 * whole (the first one of a step carrying a `thoughtSignature`, as Gemini 3 does), running
 * `usageMetadata` on every chunk, the finish reason on a last chunk of its own, and no terminator:
 * the stream just ends. Errors are Google API errors (`{"error": {"code", "message", "status"}}`),
 * as HTTP bodies or as an event mid-stream. Without `alt=sse` the same chunks are sent as one JSON
 * array, as the API does; `:generateContent` answers one merged response.
 *
 * Replies are scripted: a queue, then a responder function. Every request is recorded. Plain ESM
 * JavaScript so Node tests, workerd tests' global setup and benchmarks can all import it; types are
 * in google-server.d.mts.
 */
import { randomBytes } from 'node:crypto';
import { parseJson, randomId, readBody, split, startScriptedServer, writeFrames } from './scripted-server.mjs';

/**
 * @typedef {{ name: string, args?: Record<string, unknown>, id?: string }} ScriptedFunctionCall
 *
 * @typedef {object} UsageMetadata
 * @property {number} promptTokenCount
 * @property {number} [candidatesTokenCount]
 * @property {number} totalTokenCount
 * @property {number} [cachedContentTokenCount]
 * @property {number} [thoughtsTokenCount]
 * @property {number} [toolUsePromptTokenCount]
 *
 * @typedef {object} StreamReply A successful streamed answer.
 * @property {string} [text] Sent in pieces of `chunkSize` characters, one chunk each.
 * @property {string} [thoughts] Sent first, as `thought: true` parts (what `includeThoughts` returns).
 * @property {ScriptedFunctionCall[]} [functionCalls] Each sent whole, after the text.
 * @property {number} [callsPerChunk] Function calls per chunk; default 1.
 * @property {boolean} [thoughtSignature] Whether the first call carries a `thoughtSignature`; default true.
 * @property {string} [finishReason] Default `STOP` (Gemini says STOP after function calls too).
 * @property {Record<string, unknown>[]} [safetyRatings] Sent with the finish reason.
 * @property {UsageMetadata} [usage] The final usage; earlier chunks carry running counts. Default
 *   an estimate of about four characters a token.
 * @property {string} [modelVersion] Default: the model of the request path.
 * @property {number} [chunkSize] Characters per text piece; default 4.
 * @property {number} [chunkDelayMs] Pause between events; default 0.
 * @property {string} [blockReason] The prompt is blocked: a single chunk with `promptFeedback`.
 * @property {Record<string, unknown>} [streamError] Sent as `data: {"error": ...}` after the content;
 *   then the stream ends.
 * @property {boolean} [omitFinish] End the stream without the finish chunk.
 * @property {number} [stallAfter] Write this many events, then nothing more, keeping the connection
 *   open until the client goes away or the server closes.
 *
 * @typedef {object} HttpReply A plain HTTP answer, typically an error.
 * @property {number} status
 * @property {object | string} [body] An object is sent as JSON, a string as is; by default a Google
 *   API error for the status.
 * @property {Record<string, string>} [headers] E.g. `{ 'retry-after': '0' }`.
 * @property {string} [retryDelay] For the default body: a `google.rpc.RetryInfo` detail, e.g. "2s".
 *
 * @typedef {StreamReply | HttpReply} Reply
 *
 * @typedef {Record<string, any>} RecordedBody A GenerateContentRequest as sent; nothing is validated.
 *
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {string | null} model The model named in the path, e.g. `gemini-2.5-flash`.
 * @property {Record<string, string | string[] | undefined>} headers Lower-case names, as Node gives them.
 * @property {RecordedBody | null} body The parsed JSON body (null when it was not JSON).
 * @property {boolean} closedEarly Whether the client went away before the reply was complete.
 *
 * @typedef {(body: RecordedBody, request: RecordedRequest) => Reply | Promise<Reply>} Responder
 *
 * @typedef {object} GoogleServerOptions
 * @property {Responder} [respond] Answers when the queue is empty; by default echoes the last user text.
 * @property {Reply[]} [replies] Initial queue.
 * @property {string} [apiKey] When set, requests without this `x-goog-api-key` (or `?key=`) are refused.
 */

const CANONICAL_STATUS = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const DEFAULT_MESSAGES = {
  400: 'Request contains an invalid argument.',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
  504: 'The request timed out. Please try again.',
};

const ROUTE = /^\/(v1|v1beta)\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * Starts the server on 127.0.0.1 with a free port; its `url`, the origin, is what the Google provider
 * takes as its base URL.
 * @param {GoogleServerOptions} [options]
 */
export async function startGoogleServer(options = {}) {
  return startScriptedServer({
    replies: options.replies,
    respond: options.respond ?? echoResponder,
    handle: (req, res, scripted) => handle(req, res, scripted, options),
    failed: (res, error) =>
      sendHttpReply(res, { status: 500, body: googleError(500, `google-server: ${error.message}`) }),
  });
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {import('./scripted-server.mjs').Scripted} scripted
 * @param {GoogleServerOptions} options
 */
async function handle(req, res, scripted, options) {
  const rawBody = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://local');
  const route = ROUTE.exec(url.pathname);
  /** @type {RecordedRequest} */
  const record = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    model: route ? decodeURIComponent(route[2] ?? '') : null,
    headers: req.headers,
    body: parseJson(rawBody),
    closedEarly: false,
  };
  scripted.record(record, res);

  if (options.apiKey !== undefined) {
    const key = req.headers['x-goog-api-key'] ?? url.searchParams.get('key');
    if (key !== options.apiKey) {
      sendHttpReply(res, { status: 400, body: invalidKeyError() });
      return;
    }
  }
  if (req.method !== 'POST' || !route) {
    const message = `models/${record.model ?? url.pathname} is not found for API version v1beta, or is not supported for generateContent.`;
    sendHttpReply(res, { status: 404, body: googleError(404, message) });
    return;
  }
  if (record.body === null || typeof record.body !== 'object') {
    sendHttpReply(res, { status: 400, body: googleError(400, 'Invalid JSON payload received.') });
    return;
  }
  /** @type {Reply} */
  const reply = await scripted.nextReply(record);
  const model = record.model ?? 'gemini';
  if ('status' in reply) {
    sendHttpReply(res, reply);
  } else if (route[3] === 'generateContent') {
    sendJson(res, mergedResponse(streamChunks(reply, record.body, model)));
  } else if (record.query.alt === 'sse') {
    await sendStream(res, reply, record.body, model);
  } else {
    sendJson(res, streamChunks(reply, record.body, model));
  }
}

/** @type {Responder} */
function echoResponder(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const lastUser = [...contents].reverse().find((content) => content?.role === 'user');
  const parts = Array.isArray(lastUser?.parts) ? lastUser.parts : [];
  const text = parts.map((/** @type {any} */ part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return { text: `echo: ${text}` };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 * @param {string} model
 */
async function sendStream(res, reply, request, model) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'content-disposition': 'attachment',
    vary: 'Origin, X-Origin, Referer',
    server: 'scaffolding on HTTPServer2',
    'x-content-type-options': 'nosniff',
  });
  await writeFrames(res, streamFrames(reply, request, model), reply);
}

/**
 * The SSE events of one streamed answer, exactly as written to the wire.
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 * @param {string} [model] The model of the request path.
 * @returns {string[]}
 */
export function streamFrames(reply, request, model = 'gemini') {
  const frames = streamChunks(reply, request, model).map((chunk) => `data: ${googleJson(chunk)}\r\n\r\n`);
  if (reply.streamError) frames.push(`data: ${googleJson({ error: reply.streamError })}\r\n\r\n`);
  return frames;
}

/**
 * The GenerateContentResponse chunks of one answer, in order.
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 * @param {string} model
 * @returns {Record<string, unknown>[]}
 */
function streamChunks(reply, request, model) {
  const modelVersion = reply.modelVersion ?? model;
  const responseId = randomId(22);
  const usage = reply.usage ?? estimateUsage(request, reply);
  if (reply.blockReason) {
    return [
      {
        promptFeedback: { blockReason: reply.blockReason },
        usageMetadata: { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
        modelVersion,
        responseId,
      },
    ];
  }
  /** @type {Record<string, unknown>[][]} */
  const partGroups = [];
  for (const piece of split(reply.thoughts ?? '', reply.chunkSize ?? 4))
    partGroups.push([{ text: piece, thought: true }]);
  for (const piece of split(reply.text ?? '', reply.chunkSize ?? 4)) partGroups.push([{ text: piece }]);
  const calls = (reply.functionCalls ?? []).map((call, index) => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args ?? {} },
    ...(index === 0 && reply.thoughtSignature !== false ? { thoughtSignature: randomSignature() } : {}),
  }));
  const perChunk = Math.max(1, reply.callsPerChunk ?? 1);
  for (let index = 0; index < calls.length; index += perChunk) partGroups.push(calls.slice(index, index + perChunk));

  const candidatesTotal = usage.candidatesTokenCount ?? 0;
  const chunks = partGroups.map((parts, index) => {
    // Running counts: the candidates so far, without the thoughts the last chunk reports.
    const soFar = Math.max(1, Math.round((candidatesTotal * (index + 1)) / (partGroups.length + 1)));
    return {
      candidates: [{ content: { parts, role: 'model' }, index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.promptTokenCount,
        candidatesTokenCount: soFar,
        totalTokenCount: usage.promptTokenCount + soFar,
      },
      modelVersion,
      responseId,
    };
  });
  if (!reply.omitFinish && !reply.streamError) {
    chunks.push({
      candidates: [
        {
          content: { role: 'model' },
          finishReason: reply.finishReason ?? 'STOP',
          ...(reply.safetyRatings ? { safetyRatings: reply.safetyRatings } : {}),
          index: 0,
        },
      ],
      usageMetadata: usage,
      modelVersion,
      responseId,
    });
  }
  return chunks;
}

/**
 * The non-streamed response: the chunks' parts in one candidate.
 * @param {Record<string, any>[]} chunks
 */
function mergedResponse(chunks) {
  const last = chunks[chunks.length - 1] ?? {};
  const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
  const finish = last.candidates?.[0] ?? {};
  return {
    ...(last.promptFeedback ? { promptFeedback: last.promptFeedback } : {}),
    ...(last.candidates ? { candidates: [{ ...finish, content: { parts, role: 'model' } }] } : {}),
    usageMetadata: last.usageMetadata,
    modelVersion: last.modelVersion,
    responseId: last.responseId,
  };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {HttpReply} reply
 */
function sendHttpReply(res, reply) {
  const headers = { ...(reply.headers ?? {}) };
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  const body = reply.body ?? googleError(reply.status, undefined, reply.retryDelay);
  // Google's error bodies are pretty-printed with two spaces.
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  if (!hasType) {
    headers['content-type'] =
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=UTF-8';
  }
  res.writeHead(reply.status, headers);
  res.end(text);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {unknown} body
 */
function sendJson(res, body) {
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body, null, 2));
}

/**
 * A Google API error body.
 * @param {number} code
 * @param {string} [message]
 * @param {string} [retryDelay]
 */
export function googleError(code, message, retryDelay) {
  const status = /** @type {Record<number, string>} */ (CANONICAL_STATUS)[code] ?? 'UNKNOWN';
  const text = message ?? /** @type {Record<number, string>} */ (DEFAULT_MESSAGES)[code] ?? `HTTP ${code}`;
  const details = retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] : undefined;
  return { error: { code, message: text, status, ...(details ? { details } : {}) } };
}

function invalidKeyError() {
  return {
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    },
  };
}

/**
 * JSON as Google's servers write stream chunks: a space after each colon, none after commas.
 * @param {unknown} value
 * @returns {string}
 */
export function googleJson(value) {
  if (Array.isArray(value)) return `[${value.map(googleJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}: ${googleJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * @param {RecordedBody} request
 * @param {StreamReply} reply
 * @returns {UsageMetadata}
 */
function estimateUsage(request, reply) {
  const output =
    (reply.text ?? '') +
    (reply.functionCalls ?? []).map((call) => call.name + JSON.stringify(call.args ?? {})).join('');
  const promptTokenCount = Math.ceil(JSON.stringify(request.contents ?? []).length / 4);
  const candidatesTokenCount = Math.ceil(output.length / 4);
  const thoughtsTokenCount = Math.ceil((reply.thoughts ?? '').length / 4);
  return {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount + thoughtsTokenCount,
    ...(thoughtsTokenCount > 0 ? { thoughtsTokenCount } : {}),
  };
}

/** An opaque base64 blob standing for an encrypted thought signature. */
function randomSignature() {
  return randomBytes(96).toString('base64');
}
