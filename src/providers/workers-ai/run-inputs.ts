/**
 * The `inputs` of one `env.AI.run` call (THR-4): the conversation in the Chat Completions shape the
 * binding's text-generation models accept (`messages` with system, user, assistant `tool_calls` and
 * `tool` results answering them by `tool_call_id`), the tools in the OpenAI function shape, and the
 * model's settings under the binding's own names.
 *
 * - Images (EXE-9) stay user content parts `{ type: 'image_url', image_url: { url: 'data:...' } }`,
 *   which Workers AI's vision models (Llama 4 Scout, Llama 3.2 Vision, Mistral Small 3.1, Gemma 3)
 *   take as data URLs only. A tool message carries text alone: images found in one follow its
 *   results as a user message.
 * - The binding rejects `content: null`, so an assistant message that only calls tools has `''`.
 * - JSON mode (`response_format: { type: 'json_schema', json_schema }`) takes the bare JSON Schema,
 *   its name as the schema's `title`; the docs say it "currently doesn't support streaming", so a
 *   request with a response format runs unstreamed.
 * - `stop`, `tool_choice`, `parallel_tool_calls` and `reasoning_effort` are sent when set; the
 *   models with the Chat Completions input schema (GLM, Kimi, gpt-oss, Gemma 4, ...) honour them,
 *   the others ignore what their schema lacks.
 */
import type { ModelRequest, RequestSettings } from '../../engine/ports/index.js';
import type { JsonSchema, ModelContentPart, ModelMessage } from '../../spec/index.js';

type BindingContent = string | ModelContentPart[];

export type BindingMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: BindingContent }
  | {
      role: 'assistant';
      content: string;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export function runInputs(request: ModelRequest): Record<string, unknown> {
  const inputs: Record<string, unknown> = { messages: bindingMessages(request.messages) };
  // JSON mode does not stream.
  if (request.settings?.responseFormat === undefined) inputs.stream = true;
  if (request.tools.length > 0) inputs.tools = request.tools;
  if (request.toolChoice !== undefined) inputs.tool_choice = request.toolChoice;
  if (request.parallelToolCalls !== undefined) inputs.parallel_tool_calls = request.parallelToolCalls;
  Object.assign(inputs, settingsInputs(request.settings));
  return inputs;
}

/** The model settings under the binding's input names (THR-4). */
function settingsInputs(settings: RequestSettings | undefined): Record<string, unknown> {
  if (!settings) return {};
  const inputs: Record<string, unknown> = {};
  if (settings.maxOutputTokens !== undefined) inputs.max_tokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) inputs.temperature = settings.temperature;
  if (settings.topP !== undefined) inputs.top_p = settings.topP;
  if (settings.stop !== undefined) inputs.stop = settings.stop;
  if (settings.reasoningEffort !== undefined) inputs.reasoning_effort = settings.reasoningEffort;
  if (settings.responseFormat) {
    const { name, schema } = settings.responseFormat;
    inputs.response_format = { type: 'json_schema', json_schema: titled(schema, name) };
  }
  return inputs;
}

/** The schema with the format's name as its `title`, unless it has one. */
function titled(schema: JsonSchema, name: string): JsonSchema {
  return 'title' in schema || name === '' ? schema : { ...schema, title: name };
}

export function bindingMessages(messages: readonly ModelMessage[]): BindingMessage[] {
  const out: BindingMessage[] = [];
  // Images returned inside tool messages, sent as one user message once the run of results ends.
  let heldImages: ModelContentPart[] = [];
  const flushImages = () => {
    if (heldImages.length > 0) out.push({ role: 'user', content: heldImages });
    heldImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushImages();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        out.push(assistantMessage(message));
        break;
      case 'tool': {
        const parts = typeof message.content === 'string' ? [] : message.content;
        heldImages.push(...parts.filter((part) => part.type === 'image_url'));
        out.push({ role: 'tool', tool_call_id: message.tool_call_id, content: textOf(message.content) });
        break;
      }
    }
  }
  flushImages();
  return out;
}

function assistantMessage(message: Extract<ModelMessage, { role: 'assistant' }>): BindingMessage {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: message.content ?? '' };
  return {
    role: 'assistant',
    content: message.content ?? '',
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      // A call the model made without arguments is replayed with an empty object, which every schema accepts.
      function: { name: call.function.name, arguments: call.function.arguments.trim() || '{}' },
    })),
  };
}

function textOf(content: BindingContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is Extract<ModelContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
