/**
 * The span of one model step (TRACE-3): `chat <model>`, a client span beneath the turn or the
 * prompt tool that runs the step, with the convention's attributes: provider, requested and
 * answering model, tokens, finish reason, and the runtime's cost and stored message. The request's
 * messages and the answer are recorded only when content capture is on, scrubbed, images and files
 * by type and size only.
 */
import type { ModelContentPart, ModelMessage } from '../../spec/index.js';
import { stepCost } from '../conversation/index.js';
import type { ModelResponse } from '../ports/index.js';
import { ATTR, activeSpan, providerName, type Span, spanNames } from '../tracing/index.js';
import type { StepRun } from './step-types.js';

export function startChatSpan(run: StepRun, messages: readonly ModelMessage[]): Span {
  // The id the provider sends (an OpenAI-compatible model's comes from MODEL), not the definition's name.
  const requested = run.provider.modelId ?? run.model.model ?? run.model.name;
  return activeSpan()
    .child(spanNames.chat(requested), 'client', {
      [ATTR.operation]: 'chat',
      [ATTR.provider]: providerName(run.model.provider),
      [ATTR.requestModel]: requested,
    })
    .content(ATTR.inputMessages, () => messages.map(withoutInlineData));
}

/** A `data:` URL as a span records it: its type and size, not its bytes (an image or a PDF can be megabytes). */
function dataUrlSummary(url: string): string {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) return url;
  const data = url.slice(comma + 1);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return `${url.slice(0, comma)},[${Math.floor((data.length * 3) / 4) - padding} bytes]`;
}

/** A request message with its images and files named by type and size (MSG-10, EXE-9). */
function withoutInlineData(message: ModelMessage): ModelMessage {
  if ((message.role !== 'user' && message.role !== 'tool') || typeof message.content === 'string') return message;
  const content = message.content.map((part): ModelContentPart => {
    if (part.type === 'image_url') return { type: 'image_url', image_url: { url: dataUrlSummary(part.image_url.url) } };
    if (part.type === 'file')
      return { type: 'file', file: { ...part.file, file_data: dataUrlSummary(part.file.file_data) } };
    return part;
  });
  return { ...message, content };
}

/** Ends the step's span with what the model answered and what it cost. */
export function endChatSpan(span: Span, run: StepRun, response: ModelResponse, messageId: string): void {
  const usage = response.usage;
  const cost = usage ? stepCost(usage, run.model.prices) : null;
  span
    .setAll({
      [ATTR.responseModel]: response.model,
      [ATTR.inputTokens]: usage?.promptTokens,
      [ATTR.outputTokens]: usage?.completionTokens,
      [ATTR.finishReasons]: response.finishReason ? [response.finishReason] : undefined,
      [ATTR.cost]: cost,
      [ATTR.message]: messageId,
    })
    .content(ATTR.outputMessages, () => [
      {
        role: 'assistant',
        content: response.text,
        ...(response.toolCalls.length > 0 ? { tool_calls: response.toolCalls } : {}),
      },
    ])
    .ok()
    .end();
}
