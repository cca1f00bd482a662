/**
 * The conversation in Gemini's shape (THR-4, EXE-9). The runtime speaks Chat Completions messages;
 * Gemini takes a `systemInstruction` and `contents` whose turns are `user` or `model`:
 *
 * - system messages become the parts of `systemInstruction`, in order;
 * - an assistant message becomes a `model` turn: its text, then one `functionCall` part per tool
 *   call (the arguments as an object, the call's id kept so the result can name it);
 * - a tool message becomes a `functionResponse` part of a `user` turn. Gemini needs the function's
 *   name, which a tool message does not carry: it is looked up from the assistant's tool calls by
 *   `tool_call_id`. `response` must be an object: the result goes under `output`, the key Google
 *   documents for a function's output;
 * - images (data: URLs, EXE-9) and PDFs sent with a user's message (MSG-11) become `inlineData`
 *   parts; an image by http(s) URL, which Gemini only reads from its own file store, is named in a
 *   text part instead;
 * - consecutive turns of the same role are merged, so tool results of one step, and the images
 *   that follow them, form a single `user` turn, as Gemini expects.
 *
 * Gemini 3 rejects a replayed model turn whose first function call lacks the thought signature it
 * was sent with. The Provider seam keeps no signature, so such calls carry the sentinel Google
 * documents for history it did not produce itself (`skip_thought_signature_validator`); older
 * models ignore the field.
 */
import type { ModelContentPart, ModelMessage, ToolCall } from '../../spec/index.js';
import { isRecord } from '../transport/index.js';
import type { Content, Part } from './request-shapes.js';

export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

export interface GeminiConversation {
  systemInstruction?: { parts: { text: string }[] };
  contents: Content[];
}

export function toGeminiConversation(messages: readonly ModelMessage[]): GeminiConversation {
  const system: { text: string }[] = [];
  const contents: Content[] = [];
  const names = new Map<string, string>();
  const add = (role: Content['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content.trim() !== '') system.push({ text: message.content });
        break;
      case 'user':
        add('user', contentParts(message.content));
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
        add('model', modelParts(message.content, message.tool_calls ?? []));
        break;
      case 'tool':
        add('user', toolResultParts(message.tool_call_id, names.get(message.tool_call_id), message.content));
        break;
    }
  }
  return { ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}), contents };
}

function contentParts(content: string | readonly ModelContentPart[]): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((part): Part[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
    if (part.type === 'image_url') return [imagePart(part.image_url.url)];
    return [filePart(part.file.filename, part.file.file_data)];
  });
}

/** A PDF sent with a user's message (MSG-11): `inlineData` like an image, with the PDF's type. */
function filePart(filename: string, fileData: string): Part {
  const data = DATA_URL.exec(fileData);
  if (data) return { inlineData: { mimeType: data[1] as string, data: data[2] as string } };
  return { text: `[file attached: ${filename} — read it with a tool]` };
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

function imagePart(url: string): Part {
  const data = DATA_URL.exec(url);
  if (data) return { inlineData: { mimeType: data[1] as string, data: data[2] as string } };
  return { text: `[image: ${url}]` };
}

function modelParts(text: string | null, calls: readonly ToolCall[]): Part[] {
  const parts: Part[] = text ? [{ text }] : [];
  calls.forEach((call, index) => {
    const part: Part = { functionCall: { id: call.id, name: call.function.name, args: argumentsObject(call) } };
    // Gemini 3 signs the first call of a step; the others carry no signature.
    if (index === 0) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    parts.push(part);
  });
  return parts;
}

/**
 * The call's arguments as the object Gemini requires. Arguments that are not a JSON object (a
 * malformed call another provider made earlier in the thread) are passed as the raw text.
 */
function argumentsObject(call: ToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    if (isRecord(parsed)) return parsed;
  } catch {
    // Falls through to the raw text.
  }
  return { arguments: call.function.arguments };
}

function toolResultParts(
  callId: string,
  name: string | undefined,
  content: string | readonly ModelContentPart[],
): Part[] {
  const parts = contentParts(content);
  const output = parts.flatMap((part) => (part.text !== undefined ? [part.text] : [])).join('\n');
  const images = parts.filter((part) => part.inlineData !== undefined);
  // A result whose call is not in the conversation (the engine never sends one) is named by its id.
  const response: Part = { functionResponse: { id: callId, name: name ?? callId, response: { output } } };
  return [response, ...images];
}
