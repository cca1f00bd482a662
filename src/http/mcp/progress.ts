/**
 * Progress of an agent tool call (THR-2 frames as MCP progress): when the client asked for progress
 * (`_meta.progressToken`), the thread's id first (`thread <id>`, so a client knows the thread before
 * the answer), then each tool call started or finished, each wait and each piece of streamed text is
 * sent as a `notifications/progress` on the call's own response stream, numbered 1, 2, 3...
 * Notifications go out one after another, and all of them before the result: after the result
 * the stream is closed.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { NumberedFrame } from '../../engine/ports/index.js';

export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ProgressReporter {
  /** Reports a message of the call's own (the thread it follows). */
  note(message: string): void;
  /** Reports a frame of the turn, if it means progress to a client. */
  frame(frame: NumberedFrame): void;
  /** Resolves once every notification is sent (or failed: a client gone is not an error of the call). */
  flush(): Promise<void>;
}

/** What a frame means to someone waiting for the answer; nothing for frames that are bookkeeping. */
export function progressMessage(frame: NumberedFrame): string | null {
  switch (frame.type) {
    case 'tool_started':
      return `calling ${frame.name}`;
    case 'tool_result':
      return `${frame.name} ${frame.status === 'success' ? 'finished' : 'failed'}`;
    case 'tool_progress':
      return `${frame.name}: ${JSON.stringify(frame.event)}`;
    case 'waiting':
      return `waiting for ${frame.kind} (${frame.name})`;
    case 'message_delta':
      return frame.delta;
    default:
      return null;
  }
}

export function progressReporter(extra: ToolCallExtra): ProgressReporter {
  const token = extra._meta?.progressToken;
  let sent = Promise.resolve();
  let progress = 0;
  const note = (message: string) => {
    if (token === undefined) return;
    progress++;
    const params = { progressToken: token, progress, message };
    sent = sent.then(() => extra.sendNotification({ method: 'notifications/progress', params })).catch(() => {});
  };
  return {
    note,
    frame(frame) {
      const message = progressMessage(frame);
      if (message !== null) note(message);
    },
    flush: () => sent,
  };
}
