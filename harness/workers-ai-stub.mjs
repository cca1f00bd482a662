/**
 * A stand-in for the Workers AI binding (`env.AI`) for tests and benchmarks: tests never reach
 * Cloudflare, yet the provider must read exactly what the real binding returns. Its `run(model,
 * inputs, options)` answers as workerd's `Ai.run` does:
 *
 * - with `inputs.stream: true`, a `ReadableStream<Uint8Array>` of server-sent events. The native
 *   shape (Llama, Mistral, ...): `data: {"response":"<text>","p":"<padding>"}` events, tool calls as
 *   fragments under a top-level `tool_calls` (a first one with id, type, index and name, then pieces
 *   of the arguments string, then one with every field null), a last `data: {"response":"","usage":
 *   {...}}` and `data: [DONE]`. The Chat Completions shape (GLM, Kimi, gpt-oss, ...):
 *   `chat.completion.chunk`s whose finish chunk reports zero usage, then the same native usage event
 *   and `[DONE]`;
 * - otherwise the parsed JSON output: native `{ response, tool_calls: [{ name, arguments }], usage }`
 *   (in JSON mode `response` is the object itself), or a `chat.completion`;
 * - a failure is thrown as an `InferenceUpstreamError` whose message is `<code>: <description>`.
 *
 * Replies are scripted: a queue, then a responder function that may choose from the request. Every
 * call is recorded with its model and its inputs as the binding would serialise them. No Node API is
 * used, so the same stub runs in Node and inside workerd. Types are in workers-ai-stub.d.mts.
 */

/** What the binding throws: workerd's class of the same name. */
export class InferenceUpstreamError extends Error {
  /** @param {string} message @param {string} [name] */
  constructor(message, name = 'InferenceUpstreamError') {
    super(message);
    this.name = name;
  }
}

/**
 * @typedef {import('./workers-ai-stub.d.mts').StubReply} StubReply
 * @typedef {import('./workers-ai-stub.d.mts').AnswerReply} AnswerReply
 * @typedef {import('./workers-ai-stub.d.mts').RecordedCall} RecordedCall
 * @typedef {import('./workers-ai-stub.d.mts').WorkersAIStubOptions} WorkersAIStubOptions
 */

/** @param {WorkersAIStubOptions} [options] */
export function createWorkersAIStub(options = {}) {
  /** @type {StubReply[]} */
  const queue = [...(options.replies ?? [])];
  /** @type {RecordedCall[]} */
  const calls = [];
  const respond = options.respond ?? echoReply;

  return {
    calls,
    /**
     * @param {string} model
     * @param {Record<string, unknown>} inputs
     * @param {{ signal?: AbortSignal }} [runOptions]
     */
    async run(model, inputs, runOptions) {
      /** @type {RecordedCall} */
      const call = {
        model,
        inputs: JSON.parse(JSON.stringify(inputs)),
        signal: runOptions?.signal !== undefined,
        cancelled: false,
      };
      calls.push(call);
      const reply =
        queue.length > 0 ? /** @type {StubReply} */ (queue.shift()) : await respond(call.inputs, model, call);
      if ('throws' in reply) throw new InferenceUpstreamError(reply.throws, reply.errorName);
      if ('hang' in reply) return hang(runOptions?.signal);
      if (inputs.stream === true) return byteStream(streamFrames(reply, model, call.inputs), reply, call);
      return wholeAnswer(reply, model, call.inputs);
    },
    /** @param {...StubReply} replies */
    enqueue(...replies) {
      queue.push(...replies);
    },
    get pending() {
      return queue.length;
    },
    reset() {
      queue.length = 0;
      calls.length = 0;
    },
  };
}

/** @param {Record<string, unknown>} inputs @returns {AnswerReply} */
function echoReply(inputs) {
  const messages = Array.isArray(inputs.messages) ? inputs.messages : [];
  const lastUser = [...messages].reverse().find((message) => message?.role === 'user');
  const content = typeof lastUser?.content === 'string' ? lastUser.content : JSON.stringify(lastUser?.content ?? '');
  return { text: `echo: ${content}` };
}

/** A call that never answers, but rejects as the binding does when its signal aborts. @param {AbortSignal} [signal] */
function hang(signal) {
  return new Promise((_, reject) => {
    const abort = () => reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * The server-sent events of one streamed answer, each `data: ...\n\n`, in the binding's order.
 * @param {AnswerReply} reply
 * @param {string} [model]
 * @param {Record<string, unknown>} [inputs]
 * @returns {string[]}
 */
export function streamFrames(reply, model = '@cf/meta/llama-3.3-70b-instruct-fp8-fast', inputs = {}) {
  const size = reply.chunkSize ?? 4;
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({ ...call, arguments: argumentText(call.arguments) }));
  const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
  const usageEvent = data({ response: '', usage: reply.usage ?? estimateUsage(inputs, reply) });
  const frames = [];
  if (reply.format === 'chat-completions') {
    const base = { id: `chatcmpl-${randomHex(32)}`, object: 'chat.completion.chunk', created: now(), model };
    /** @param {object} delta @param {string | null} [finishReason] @param {object} [extra] */
    const chunk = (delta, finishReason = null, extra = {}) =>
      data({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra });
    frames.push(chunk({ role: 'assistant', content: '' }));
    for (const piece of split(text, size)) frames.push(chunk({ content: piece }));
    toolCalls.forEach((call, index) => {
      const first = { id: call.id ?? `chatcmpl-tool-${randomHex(16)}`, type: 'function', index };
      frames.push(chunk({ tool_calls: [{ ...first, function: { name: call.name, arguments: '' } }] }));
      for (const piece of split(call.arguments, size)) {
        frames.push(
          chunk({ tool_calls: [{ id: null, type: 'function', index, function: { name: null, arguments: piece } }] }),
        );
      }
    });
    const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    frames.push(chunk({}, reply.finishReason ?? finish, { usage: { prompt_tokens: 0, completion_tokens: 0 } }));
  } else {
    for (const piece of split(text, size)) frames.push(data({ response: piece, p: padding() }));
    toolCalls.forEach((call, index) => {
      const first = { id: call.id ?? `chatcmpl-tool-${randomHex(16)}`, type: 'function', index };
      frames.push(data({ tool_calls: [{ ...first, function: { name: call.name, arguments: '' } }], p: padding() }));
      for (const piece of split(call.arguments, size)) {
        frames.push(data({ tool_calls: [{ index, function: { arguments: piece } }], p: padding() }));
      }
      frames.push(data({ tool_calls: [{ id: null, type: null, function: { name: null, arguments: null } }] }));
    });
  }
  if (!reply.omitUsage) frames.push(usageEvent);
  if (!reply.omitDone) frames.push('data: [DONE]\n\n');
  return frames;
}

/**
 * The exact bytes of one streamed answer, as the binding's stream delivers them.
 * @param {AnswerReply} reply
 * @param {string} [model]
 * @param {Record<string, unknown>} [inputs]
 */
export function streamBytes(reply, model, inputs) {
  return new TextEncoder().encode(streamFrames(reply, model, inputs).join(''));
}

/**
 * The parsed JSON output of an unstreamed answer.
 * @param {AnswerReply} reply
 * @param {string} [model]
 * @param {Record<string, unknown>} [inputs]
 */
export function wholeAnswer(reply, model = '@cf/meta/llama-3.3-70b-instruct-fp8-fast', inputs = {}) {
  const usage = reply.usage ?? estimateUsage(inputs, reply);
  const toolCalls = reply.toolCalls ?? [];
  if (reply.format === 'chat-completions') {
    const calls = toolCalls.map((call) => ({
      id: call.id ?? `chatcmpl-tool-${randomHex(16)}`,
      type: 'function',
      function: { name: call.name, arguments: argumentText(call.arguments) },
    }));
    const content = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? null);
    return {
      id: `chatcmpl-${randomHex(32)}`,
      object: 'chat.completion',
      created: now(),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
          logprobs: null,
          finish_reason: reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'),
        },
      ],
      usage,
    };
  }
  // The native output: tool calls in the flat shape, their arguments as an object when they parse.
  const calls = toolCalls.map((call) => ({ name: call.name, arguments: argumentObject(call.arguments) }));
  return {
    response: reply.json !== undefined ? reply.json : (reply.text ?? ''),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
    usage,
  };
}

/**
 * @param {string[]} frames
 * @param {AnswerReply} reply
 * @param {RecordedCall} call
 */
function byteStream(frames, reply, call) {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (reply.failAfter !== undefined && next >= reply.failAfter) {
        controller.error(new Error(reply.failWith ?? 'Network connection lost.'));
        return;
      }
      if (reply.stallAfter !== undefined && next >= reply.stallAfter) return new Promise(() => {});
      if (next >= frames.length) {
        controller.close();
        return;
      }
      if (reply.chunkDelayMs && next > 0) await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
      controller.enqueue(encoder.encode(/** @type {string} */ (frames[next])));
      next++;
    },
    cancel() {
      call.cancelled = true;
    },
  });
}

/** @param {string | Record<string, unknown> | undefined} value */
function argumentText(value) {
  if (value === undefined) return '{}';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** @param {string | Record<string, unknown> | undefined} value */
function argumentObject(value) {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** @param {Record<string, unknown>} inputs @param {AnswerReply} reply */
function estimateUsage(inputs, reply) {
  const output =
    (reply.text ?? '') +
    (reply.json !== undefined ? JSON.stringify(reply.json) : '') +
    (reply.toolCalls ?? []).map((call) => call.name + argumentText(call.arguments)).join('');
  const prompt_tokens = Math.ceil(JSON.stringify(inputs.messages ?? []).length / 4);
  const completion_tokens = Math.ceil(output.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** @param {unknown} value */
function data(value) {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/**
 * Cuts on code points so no fragment holds half a surrogate pair.
 * @param {string} text
 * @param {number} size
 */
function split(text, size) {
  const chars = Array.from(text);
  const pieces = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

/** The `p` field's filler, whose length varies so event sizes do not reveal the tokens. */
function padding() {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const length = 1 + ((crypto.getRandomValues(new Uint8Array(1))[0] ?? 0) % 24);
  return letters.repeat(2).slice(0, length);
}

/** @param {number} length */
function randomHex(length) {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => (byte % 16).toString(16)).join('');
}

function now() {
  return Math.floor(Date.now() / 1000);
}
