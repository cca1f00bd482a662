/**
 * The four model protocols the benchmark's model server speaks, so every provider adapter is timed
 * against the same server: how to recognise a request for each, read the conversation it carries,
 * and render the answer with the same bytes as the test servers (harness/). A round of every
 * protocol is one tool call (`noop` with empty arguments unless the run names another), or the
 * closing text `done`.
 *
 * Workers AI has no HTTP API of its own here: the benchmark Worker gives its threads a binding that
 * posts `{ model, inputs }` to `/workers-ai/run` and returns the streamed body, as the real binding
 * returns the stream of its own fetch.
 */
import { frames as anthropicFrames } from '../harness/anthropic-events.mjs';
import { streamFrames as googleFrames } from '../harness/google-server.mjs';
import { streamFrames as openAIFrames } from '../harness/openai-server.mjs';
import { streamFrames as workersAIFrames } from '../harness/workers-ai-stub.mjs';

/**
 * What a request carries, flattened: each message's role, its texts, and how many tool results it
 * holds, in order.
 * @typedef {{ role: string, texts: string[], toolResults: number }} Turn
 */

/**
 * @typedef {object} WireProtocol
 * @property {string} name
 * @property {(path: string) => boolean} serves  Whether a request path is this protocol's.
 * @property {(body: any) => Turn[]} conversation
 * @property {(done: boolean, body: any, path: string, call: ToolCall) => string[]} answer  The SSE frames of the answer.
 */

/** @typedef {{ name: string, args: Record<string, unknown> }} ToolCall */

/** @param {unknown} content @returns {string[]} */
const textsOf = (content) =>
  typeof content === 'string'
    ? [content]
    : Array.isArray(content)
      ? content.filter((block) => typeof block?.text === 'string').map((block) => block.text)
      : [];

/** @param {string} toolRole @returns {(body: any) => Turn[]} */
const chatMessages = (toolRole) => (body) =>
  (Array.isArray(body?.messages) ? body.messages : []).map((message) => ({
    role: String(message?.role),
    texts: textsOf(message?.content),
    toolResults: message?.role === toolRole ? 1 : 0,
  }));

/** @type {WireProtocol[]} */
export const PROTOCOLS = [
  {
    name: 'openai',
    serves: (path) => path.endsWith('/chat/completions'),
    conversation: chatMessages('tool'),
    answer: (done, body, _path, call) =>
      openAIFrames(
        done ? { text: 'done' } : { toolCalls: [{ name: call.name, arguments: JSON.stringify(call.args) }] },
        body,
      ),
  },
  {
    name: 'anthropic',
    serves: (path) => path.endsWith('/v1/messages'),
    conversation: (body) =>
      (Array.isArray(body?.messages) ? body.messages : []).map((message) => ({
        role: String(message?.role),
        texts: textsOf(message?.content),
        toolResults: Array.isArray(message?.content)
          ? message.content.filter((block) => block?.type === 'tool_result').length
          : 0,
      })),
    answer: (done, body, _path, call) =>
      anthropicFrames(
        done ? { text: 'done' } : { toolCalls: [{ name: call.name, input: JSON.stringify(call.args) }] },
        body?.model ?? '',
      ),
  },
  {
    name: 'google',
    serves: (path) => path.includes(':streamGenerateContent'),
    conversation: (body) =>
      (Array.isArray(body?.contents) ? body.contents : []).map((content) => {
        const parts = Array.isArray(content?.parts) ? content.parts : [];
        return {
          role: String(content?.role),
          texts: textsOf(parts),
          toolResults: parts.filter((part) => part?.functionResponse !== undefined).length,
        };
      }),
    answer: (done, body, path, call) =>
      googleFrames(
        done ? { text: 'done' } : { functionCalls: [{ name: call.name, args: call.args }] },
        body,
        /\/models\/([^:]+):/.exec(path)?.[1] ?? 'gemini',
      ),
  },
  {
    name: 'workers-ai',
    serves: (path) => path === '/workers-ai/run',
    conversation: (body) => chatMessages('tool')(body?.inputs),
    answer: (done, body, _path, call) =>
      workersAIFrames(
        done ? { text: 'done' } : { toolCalls: [{ name: call.name, arguments: JSON.stringify(call.args) }] },
        body?.model,
        body?.inputs,
      ),
  },
];
