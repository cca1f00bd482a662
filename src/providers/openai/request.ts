/**
 * A model step as a Chat Completions request body (THR-4). The runtime's messages are Chat
 * Completions messages already, so they go as the log holds them; the tools, the tool choice and
 * the model settings take the protocol's field names. The stream is asked for with its usage.
 */
import type { ModelRequest, RequestSettings } from '../../engine/ports/index.js';

export function requestBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  Object.assign(body, settingsBody(request.settings));
  return body;
}

/** The model settings in Chat Completions fields (THR-4). */
function settingsBody(settings: RequestSettings | undefined): Record<string, unknown> {
  if (!settings) return {};
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  // `max_tokens` is what every OpenAI-compatible server reads; OpenAI maps it for its reasoning models.
  if (settings.maxOutputTokens !== undefined) body.max_tokens = settings.maxOutputTokens;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.stop !== undefined) body.stop = settings.stop;
  if (settings.reasoningEffort !== undefined) body.reasoning_effort = settings.reasoningEffort;
  if (settings.responseFormat) {
    const { name, schema } = settings.responseFormat;
    body.response_format = { type: 'json_schema', json_schema: { name, schema, strict: false } };
  }
  return body;
}
