/**
 * The directive script (directive-script.ts) played by the local Gemini server: a Gemini request's
 * `contents` read back as Chat Completions messages, so a thread of a `google` model runs the script
 * in its own user message exactly as the scripted and OpenAI-compatible models do. Replies report a
 * fixed usage (100 prompt tokens per turn sent, half of them cached, 7 thought tokens) so tests can
 * check how usage is stored.
 */
import type { ModelMessage, ScriptedRequest, ToolCall } from '@standardagents/spec';
import type { GeminiPart, RecordedBody, StreamReply } from '../../harness/google-server.mjs';
import { directiveScript } from './directive-script.js';

function textOf(parts: GeminiPart[]): string {
  return parts.flatMap((part) => (typeof part.text === 'string' && !part.thought ? [part.text] : [])).join('');
}

/** Gemini `contents` as the messages the directive script reads. */
export function geminiMessages(body: RecordedBody): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const content of body.contents ?? []) {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      const tool_calls: ToolCall[] = parts.flatMap((part) =>
        part.functionCall
          ? [
              {
                id: part.functionCall.id ?? '',
                type: 'function' as const,
                function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
              },
            ]
          : [],
      );
      messages.push({ role: 'assistant', content: textOf(parts), ...(tool_calls.length > 0 ? { tool_calls } : {}) });
      continue;
    }
    for (const part of parts) {
      if (part.functionResponse) {
        const output = part.functionResponse.response.output;
        messages.push({
          role: 'tool',
          tool_call_id: part.functionResponse.id ?? '',
          content: typeof output === 'string' ? output : JSON.stringify(output),
        });
      }
    }
    const text = textOf(parts);
    if (text !== '') messages.push({ role: 'user', content: text });
  }
  return messages;
}

export async function geminiDirectiveReply(body: RecordedBody): Promise<StreamReply> {
  const request: ScriptedRequest = {
    messages: geminiMessages(body),
    toolNames: (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((entry) => entry.name)),
  };
  const reply = await directiveScript(request);
  const functionCalls = (reply.toolCalls ?? []).map((call) => ({
    name: call.name,
    args: typeof call.arguments === 'string' ? { arguments: call.arguments } : (call.arguments ?? {}),
  }));
  const promptTokenCount = 100 * (body.contents?.length ?? 0);
  const candidatesTokenCount = (reply.text ?? '').length + functionCalls.length;
  return {
    text: reply.text,
    functionCalls,
    usage: {
      promptTokenCount,
      cachedContentTokenCount: promptTokenCount / 2,
      candidatesTokenCount,
      thoughtsTokenCount: 7,
      totalTokenCount: promptTokenCount + candidatesTokenCount + 7,
    },
  };
}
