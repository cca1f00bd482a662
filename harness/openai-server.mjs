/**
 * A local OpenAI-compatible Chat Completions server for tests and benchmarks: tests never call a real
 * model, yet the provider must meet the protocol exactly as real servers speak it. So this answers
 * with the same bytes OpenAI sends (SSE `chat.completion.chunk`s, a role chunk first, text and
 * tool-call arguments cut into fragments, a usage chunk, `data: [DONE]`) plus an SSE comment line as
 * OpenRouter sends while it waits. Replies are scripted: a queue, then a responder function.
 *
 * Plain ESM JavaScript so the Node tests, the end-to-end tests against `wrangler dev` and the
 * benchmarks can all import it; types are in openai-server.d.mts.
 */
import { STATUS_CODES } from 'node:http';
import { parseJson, randomId, readBody, split, startScriptedServer, writeFrames } from './scripted-server.mjs';

/**
 * @typedef {{ name: string, arguments: string, id?: string }} ScriptedToolCall
 *
 * @typedef {object} StreamReply A successful streamed answer.
 * @property {string} [text] Sent as several content deltas of `chunkSize` characters.
 * @property {ScriptedToolCall[]} [toolCalls] Each sent as a first fragment (id, type, name, empty
 *   arguments) and then argument fragments of `chunkSize` characters.
 * @property {string} [model] The `model` of every chunk; defaults to the requested model.
 * @property {string} [finishReason] Defaults to `tool_calls` when there are tool calls, else `stop`.
 * @property {{ prompt_tokens: number, completion_tokens: number, total_tokens: number }} [usage]
 *   Defaults to an estimate of about four characters a token.
 * @property {number} [chunkSize] Characters per fragment; default 4 (about a token).
 * @property {number} [chunkDelayMs] Pause between SSE writes; default 0.
 * @property {string | false} [comment] The SSE comment sent after the role chunk; default
 *   `OPENROUTER PROCESSING`; false sends none.
 * @property {boolean} [omitToolCallIds] Send tool calls without ids, as some servers do.
 * @property {boolean} [omitUsage] No usage chunk even when the request asked for one.
 * @property {boolean} [omitDone] End the stream without `data: [DONE]`.
 * @property {object} [streamError] Sent as `data: {"error": ...}` after the content, then the stream ends.
 * @property {number} [stallAfter] Write this many `data:` events, then send nothing more and keep the
 *   connection open until the client goes away or the server closes.
 *
 * @typedef {object} HttpReply A plain HTTP answer, typically an error.
 * @property {number} status
 * @property {object | string} [body] An object is sent as JSON, a string as is; by default an
 *   OpenAI-style `{ error: { message, type, code } }`.
 * @property {Record<string, string>} [headers] E.g. `{ 'retry-after': '0' }`.
 *
 * @typedef {StreamReply | HttpReply} Reply
 *
 * @typedef {Record<string, any>} RecordedBody A Chat Completions request body as sent; nothing is validated.
 *
 * @typedef {object} RecordedRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string | string[] | undefined>} headers Lower-case names, as Node gives them.
 * @property {RecordedBody | null} body The parsed JSON body (null when it was not JSON).
 * @property {boolean} closedEarly Whether the client went away before the reply was complete.
 * @property {number} connection Which TCP connection carried it, numbered from 1 in the order the server accepted them.
 *
 * @typedef {(body: RecordedBody, request: RecordedRequest) => Reply | Promise<Reply>} Responder
 *
 * @typedef {object} OpenAIServerOptions
 * @property {Responder} [respond] Answers when the queue is empty; by default echoes the last user message.
 * @property {Reply[]} [replies] Initial queue.
 */

/**
 * Starts the server on 127.0.0.1 with a free port.
 * @param {OpenAIServerOptions} [options]
 */
export async function startOpenAIServer(options = {}) {
  const scripted = await startScriptedServer({
    replies: options.replies,
    respond: options.respond ?? echoResponder,
    handle,
    failed: (res, error) => sendJson(res, 500, errorBody(`openai-server: ${error.message}`, 'server_error', 500)),
  });
  // The handle keeps its `pending` getter: baseURL is added to it, not spread into a copy.
  return Object.assign(scripted, {
    /** What an OpenAI client takes as its base URL: the origin plus `/v1`. */
    baseURL: `${scripted.url}/v1`,
  });
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {import('./scripted-server.mjs').Scripted} scripted
 */
async function handle(req, res, scripted) {
  const rawBody = await readBody(req);
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  /** @type {RecordedRequest} */
  const record = {
    method: req.method ?? 'GET',
    path,
    headers: req.headers,
    body: parseJson(rawBody),
    closedEarly: false,
    connection: scripted.connectionOf(req),
  };
  scripted.record(record, res);

  if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path)) {
    sendJson(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'test' }] });
    return;
  }
  if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
    sendJson(res, 404, errorBody(`Unknown request: ${req.method} ${path}`, 'invalid_request_error', 'unknown_url'));
    return;
  }
  if (record.body === null || typeof record.body !== 'object') {
    sendJson(res, 400, errorBody('The request body is not valid JSON.', 'invalid_request_error', null));
    return;
  }
  /** @type {Reply} */
  const reply = await scripted.nextReply(record);
  if ('status' in reply) {
    sendHttpReply(res, reply);
  } else if (record.body.stream === true) {
    await sendStream(res, reply, record.body);
  } else {
    sendJson(res, 200, completion(reply, record.body));
  }
}

/** @type {Responder} */
function echoResponder(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((message) => message?.role === 'user');
  const content = typeof lastUser?.content === 'string' ? lastUser.content : JSON.stringify(lastUser?.content ?? '');
  return { text: `echo: ${content}` };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 */
async function sendStream(res, reply, request) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': `req_${randomId(24)}`,
  });
  await writeFrames(res, streamFrames(reply, request), reply);
}

/**
 * The SSE frames of one streamed answer, in the order and shape OpenAI sends them.
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 * @returns {string[]}
 */
export function streamFrames(reply, request) {
  const size = reply.chunkSize ?? 4;
  const includeUsage = request.stream_options?.include_usage === true;
  const base = {
    id: `chatcmpl-${randomId(29)}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? request.model ?? 'scripted',
    service_tier: 'default',
    system_fingerprint: 'fp_openai_server',
  };
  /** @param {object} delta @param {string | null} finishReason */
  const chunk = (delta, finishReason = null) =>
    data({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });

  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (reply.comment !== false) frames.push(`: ${reply.comment ?? 'OPENROUTER PROCESSING'}\n\n`);
  for (const piece of split(reply.text ?? '', size)) frames.push(chunk({ content: piece }));
  const toolCalls = reply.toolCalls ?? [];
  toolCalls.forEach((call, index) => {
    const id = reply.omitToolCallIds ? {} : { id: call.id ?? `call_${randomId(24)}` };
    frames.push(
      chunk({ tool_calls: [{ index, ...id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of split(call.arguments, size)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  if (reply.streamError) {
    frames.push(data({ error: reply.streamError }));
    return frames;
  }
  frames.push(chunk({}, reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop')));
  if (includeUsage && !reply.omitUsage) {
    frames.push(data({ ...base, choices: [], usage: reply.usage ?? estimateUsage(request, reply) }));
  }
  if (!reply.omitDone) frames.push('data: [DONE]\n\n');
  return frames;
}

/**
 * The non-streamed `chat.completion` for a request with `stream: false`.
 * @param {StreamReply} reply
 * @param {RecordedBody} request
 */
function completion(reply, request) {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${randomId(24)}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${randomId(29)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? request.model ?? 'scripted',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: reply.usage ?? estimateUsage(request, reply),
  };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {HttpReply} reply
 */
function sendHttpReply(res, reply) {
  const headers = { ...(reply.headers ?? {}) };
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  let body = reply.body;
  if (body === undefined) {
    const type =
      reply.status === 429 ? 'rate_limit_exceeded' : reply.status >= 500 ? 'server_error' : 'invalid_request_error';
    body = errorBody(STATUS_CODES[reply.status] ?? `HTTP ${reply.status}`, type, null);
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (!hasType) headers['content-type'] = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(reply.status, headers);
  res.end(text);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {object} body
 */
function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * @param {string} message
 * @param {string} type
 * @param {string | number | null} code
 */
function errorBody(message, type, code) {
  return { error: { message, type, param: null, code } };
}

/** @param {RecordedBody} request @param {StreamReply} reply */
function estimateUsage(request, reply) {
  const output = (reply.text ?? '') + (reply.toolCalls ?? []).map((call) => call.name + call.arguments).join('');
  const prompt_tokens = Math.ceil(JSON.stringify(request.messages ?? []).length / 4);
  const completion_tokens = Math.ceil(output.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** @param {unknown} value */
function data(value) {
  return `data: ${JSON.stringify(value)}\n\n`;
}
