/**
 * The model call of a step: the request sent with streaming, each text delta a `message_delta`
 * frame under the id the step's message will have (THR-2), never showing part of a secret
 * (text-delta-frames.ts). A call stopped after some text keeps that text as a message marked
 * `aborted`; a call that fails after some text abandons it (streamed-text.ts), so clients never
 * keep text no message holds. A tool call's arguments stream as
 * `tool_call_delta` frames, coalesced per call (tool-call-deltas.ts, ARGS-1).
 */
import type { ModelMessage } from '../../spec/index.js';
import type { TurnOutcome } from '../conversation/index.js';
import type { ModelResponse } from '../ports/index.js';
import type { StepRequest, StepRun } from './step-types.js';
import { abandonStreamedText, streamingEnded, streamingStarted } from './streamed-text.js';
import { TextDeltaFrames } from './text-delta-frames.js';
import { ToolCallDeltaFrames } from './tool-call-deltas.js';

/** The model's answer, and whether it streamed text (which its stored message ends). */
export type ModelAnswer = { response: ModelResponse; streamed: boolean } | { outcome: TurnOutcome };

export async function callModel(
  run: StepRun,
  request: StepRequest,
  messages: ModelMessage[],
  messageId: string,
): Promise<ModelAnswer> {
  const { deps, prompt, model, settings } = run;
  const { store, emit, signal } = deps;
  const { tools } = request;
  let text = '';
  const argumentFrames = new ToolCallDeltaFrames(emit, deps.now ?? Date.now, deps.withoutSecretStart);
  const textFrames = new TextDeltaFrames(emit, messageId, deps.withoutSecretStart);
  try {
    const response = await run.provider.complete(
      {
        model: model.model ?? model.name,
        messages,
        tools,
        toolChoice: tools.length > 0 ? prompt.toolChoice : undefined,
        parallelToolCalls: tools.length > 0 ? prompt.parallelToolCalls : undefined,
        ...(settings ? { settings } : {}),
        ...(run.side ? { side: run.side } : {}),
        signal,
      },
      {
        onTextDelta(delta) {
          if (text === '') streamingStarted(store, messageId);
          text += delta;
          textFrames.add(delta);
        },
        onToolCallDelta: (delta) => argumentFrames.add(delta),
      },
    );
    textFrames.flush();
    argumentFrames.flush();
    return { response, streamed: text !== '' };
  } catch (error) {
    if (signal.aborted) {
      if (text !== '') {
        const partial = run.conversation.store.append({
          id: messageId,
          role: 'assistant',
          content: text,
          metadata: { aborted: true },
        });
        emit({ type: 'message', message: partial });
        streamingEnded(store);
      }
      return { outcome: { kind: 'stopped' } };
    }
    // The step failed after some text: it will never be this message.
    abandonStreamedText(store, emit);
    const scrub = deps.scrub ?? ((message: string) => message);
    return { outcome: { kind: 'failed', message: scrub((error as Error).message) } };
  }
}
