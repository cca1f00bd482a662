/**
 * The stream's frames: what a thread's WebSocket and event stream deliver, each numbered by the
 * thread (`seq` from 1, without gaps). One union, so a `switch (frame.type)` narrows every field.
 */
import type {
  AcpToolKind,
  InteractionKind,
  JsonValue,
  Message,
  ThreadStatus,
  ToolEnvelope,
  UsageTotals,
  WaitingFor,
} from './wire.js';

type Numbered<T> = T & { seq: number };

export type Frame = Numbered<
  /** A message was appended to the log. */
  | { type: 'message'; message: Message }
  /** A stored message was changed (a tool's or an endpoint's `updateMessage`): the message as it now is. */
  | { type: 'message_updated'; message: Message }
  /** Stored messages were removed (`deleteMessage`): the message and the results of the calls it made. */
  | { type: 'message_deleted'; message_ids: string[] }
  /** The thread was rewound to message `to`: every message after it is gone (a `message_deleted` named them). */
  | { type: 'rewound'; to: string }
  /** A piece of model text, before its message is complete. */
  | { type: 'message_delta'; message_id: string; delta: string }
  /** The text streamed under this id will never become a message (a restarted or failed step): drop it. */
  | { type: 'message_abandoned'; message_id: string }
  /**
   * A tool call's arguments while the model streams them: `arguments_text` is the whole text so far
   * (not the new piece), at most one frame per call every 50 ms. The message holding the call settles it.
   */
  | { type: 'tool_call_delta'; tool_call_id: string; name: string; arguments_text: string }
  /** A tool call passed validation and is about to run. */
  | { type: 'tool_started'; tool_call_id: string; name: string; kind: AcpToolKind; arguments: JsonValue }
  /** A call still running, every 30 s while it runs: how long so far, and when it will be cut. */
  | { type: 'tool_running'; tool_call_id: string; name: string; elapsed_ms: number; timeout_ms: number }
  /** A generator tool yielded a progress event. */
  | { type: 'tool_progress'; tool_call_id: string; name: string; event: JsonValue }
  /** A tool call ended; its tool message follows as a `message` frame. */
  | {
      type: 'tool_result';
      tool_call_id: string;
      name: string;
      kind: AcpToolKind;
      status: 'success' | 'error';
      envelope: ToolEnvelope;
    }
  /** A tool call waits for an answer: a question, an approval, a client tool's output, a secret. */
  | { type: 'waiting'; tool_call_id: string; name: string; kind: InteractionKind; payload: JsonValue }
  /** A wait was answered; the thread resumes. An approval names who answered it. */
  | {
      type: 'answered';
      tool_call_id: string;
      kind: InteractionKind;
      answered_by?: { subject: string; role: string };
      approved?: boolean;
    }
  /** The thread's status changed. */
  | { type: 'status'; status: ThreadStatus; reason?: string }
  /** A turn failed or hit a limit. */
  | { type: 'error'; code: string; message: string }
  /** A model step's usage, with the turn's and the thread's totals after it. */
  | { type: 'usage'; message_id: string; model: string; step: UsageTotals; turn: UsageTotals; thread: UsageTotals }
  /** A custom event a tool sent with `state.emit`. */
  | { type: 'event'; event: string; data: JsonValue }
  /** A tool's context was set: the whole stored value; `tool` is null for the shared context. */
  | { type: 'context_updated'; tool: string | null; scope: 'local' | 'shared'; context: Record<string, JsonValue> }
>;

export type FrameType = Frame['type'];

/** The frame of one type: `FrameOf<'waiting'>` has `tool_call_id`, `kind` and `payload`. */
export type FrameOf<T extends FrameType> = Extract<Frame, { type: T }>;

/** A `waiting` frame as the wait it announces (the frame has no `created_at`: 0 until listed). */
export function waitFromFrame(frame: FrameOf<'waiting'>): WaitingFor {
  return {
    tool_call_id: frame.tool_call_id,
    name: frame.name,
    kind: frame.kind,
    payload: frame.payload,
    created_at: 0,
  };
}

/**
 * A frame from its JSON text, or null when the text is not a numbered frame (`pong`, a heartbeat,
 * anything malformed). Types the client does not know yet are passed on as they are.
 */
export function parseFrame(text: string): Frame | null {
  if (text === '' || text === 'pong' || text[0] !== '{') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { seq, type } = value as { seq?: unknown; type?: unknown };
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || typeof type !== 'string') return null;
  return value as Frame;
}
