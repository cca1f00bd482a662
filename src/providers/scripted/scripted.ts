/**
 * The scripted provider: a model that answers from a script, for tests and for running the example
 * agents offline. It streams its text in small deltas like a real model so clients see the same
 * frames either way, and reports usage (the script's, or an estimate) so totals and budgets work.
 */
import type { ModelRequest, ModelResponse, Provider, StreamHandlers } from '../../engine/ports/index.js';
import type { ModelMessage, Script, ScriptedReply, ToolCall } from '../../spec/index.js';

/** Characters per text delta: small enough that streaming is visible. */
const DELTA_SIZE = 16;

/** Model steps since the last user message: the position in a list script. */
function stepIndex(messages: readonly ModelMessage[]): number {
  let steps = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ModelMessage;
    if (message.role === 'user') break;
    if (message.role === 'assistant') steps++;
  }
  return steps;
}

/** About four characters a token, as the scripted model's usage estimate. */
function estimate(text: string): number {
  return Math.ceil(text.length / 4);
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export class ScriptedProvider implements Provider {
  constructor(
    private readonly script: Script,
    private readonly name = 'scripted',
  ) {}

  private async reply(request: ModelRequest): Promise<ScriptedReply> {
    if (typeof this.script === 'function') {
      return this.script({
        messages: request.messages,
        toolNames: request.tools.map((tool) => tool.function.name),
        toolSchemas: Object.fromEntries(request.tools.map((tool) => [tool.function.name, tool.function.parameters])),
        ...(request.side ? { side: request.side } : {}),
      });
    }
    const index = stepIndex(request.messages);
    const reply = this.script[index];
    if (!reply) {
      throw new Error(`scripted model "${this.name}" has no reply for step ${index + 1} of this turn`);
    }
    return reply;
  }

  async complete(request: ModelRequest, handlers: StreamHandlers = {}): Promise<ModelResponse> {
    if (request.signal?.aborted) throw abortError(request.signal);
    const reply = await this.reply(request);
    const text = reply.text ?? '';
    for (let offset = 0; offset < text.length; offset += DELTA_SIZE) {
      if (request.signal?.aborted) throw abortError(request.signal);
      handlers.onTextDelta?.(text.slice(offset, offset + DELTA_SIZE));
    }
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${crypto.randomUUID().replaceAll('-', '')}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      },
    }));
    // ARGS-1: arguments stream like text, the whole so far each time, as a real model's do.
    for (const call of toolCalls) {
      const args = call.function.arguments;
      for (let end = DELTA_SIZE; end < args.length + DELTA_SIZE; end += DELTA_SIZE) {
        handlers.onToolCallDelta?.({ id: call.id, name: call.function.name, argumentsText: args.slice(0, end) });
      }
    }
    const promptTokens = reply.usage?.promptTokens ?? estimate(JSON.stringify(request.messages));
    const completionTokens = reply.usage?.completionTokens ?? estimate(text + JSON.stringify(toolCalls));
    return {
      text,
      toolCalls,
      usage: {
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
        ...(reply.usage?.cachedTokens !== undefined ? { cachedTokens: reply.usage.cachedTokens } : {}),
      },
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      model: this.name,
    };
  }
}
