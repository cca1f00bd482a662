/**
 * The conversation in the shape the Workers AI binding's text-generation models accept (THR-4,
 * EXE-9): Chat Completions `messages` with system, user, assistant `tool_calls` and `tool` results
 * answering them by `tool_call_id`.
 *
 * - Images (EXE-9) stay user content parts `{ type: 'image_url', image_url: { url: 'data:...' } }`,
 *   which Workers AI's vision models (Llama 4 Scout, Llama 3.2 Vision, Mistral Small 3.1, Gemma 3)
 *   take as data URLs only. A tool message carries text alone: images found in one follow its
 *   results as a user message.
 * - The binding rejects `content: null`, so an assistant message that only calls tools has `''`.
 * - A PDF sent with a user's message is named in a note: no Workers AI model reads files (MSG-11).
 *   A user's content with no image is sent as one string.
 */
import type { ModelContentPart, ModelMessage } from '../../spec/index.js';

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
        out.push({ role: 'user', content: userContent(message.content) });
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

/**
 * A user's content as the binding takes it (MSG-11): no Workers AI model reads files, so a PDF part
 * becomes a note naming it; content without images goes as one string, which every model takes.
 */
function userContent(content: BindingContent): BindingContent {
  if (typeof content === 'string') return content;
  const parts = content.map(
    (part): ModelContentPart =>
      part.type === 'file'
        ? {
            type: 'text',
            text: `[file attached: ${part.file.filename} — this model cannot read it; read it with a tool]`,
          }
        : part,
  );
  return parts.some((part) => part.type === 'image_url') ? parts : textOf(parts, '\n\n');
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

function textOf(content: BindingContent, separator = '\n'): string {
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is Extract<ModelContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join(separator);
}
