/**
 * Stream frames (THR-2): every state change a client can watch. The thread numbers them (`seq`),
 * stores them and sends them over the WebSocket; this file is the catalogue of their shapes.
 */
import type { AcpToolKind, InteractionKind, Message, ThreadStatus, ToolEnvelope } from '../../spec/index.js';
import type { UsageTotals } from './provider.js';

export type Frame =
  /** A message was appended to the log. */
  | { type: 'message'; message: Message }
  /** A stored message was changed (`state.updateMessage`): the message as it now is. */
  | { type: 'message_updated'; message: Message }
  /** Stored messages were removed (`state.deleteMessage`): the message and the results of its calls. */
  | { type: 'message_deleted'; message_ids: string[] }
  /** The thread was rewound to message `to`: every message after it is gone (FORK-6). */
  | { type: 'rewound'; to: string }
  /** A piece of model text, before its message is complete. */
  | { type: 'message_delta'; message_id: string; delta: string }
  /** The text streamed for this message id will never become a message: drop it (THR-3). */
  | { type: 'message_abandoned'; message_id: string }
  /**
   * A tool call's arguments while the model streams them (ARGS-1): the whole text so far, at most
   * one frame per call every 50 ms. The call's `message` frame, once stored, is what counts.
   */
  | { type: 'tool_call_delta'; tool_call_id: string; name: string; arguments_text: string }
  /** A tool call passed validation and is about to run. */
  | { type: 'tool_started'; tool_call_id: string; name: string; kind: AcpToolKind; arguments: unknown }
  /** A call is still running, sent every 30 s while it does (BEAT-1); `timeout_ms` is when it is cut. */
  | { type: 'tool_running'; tool_call_id: string; name: string; elapsed_ms: number; timeout_ms: number }
  /** A generator tool yielded a progress event (KIND-2). */
  | { type: 'tool_progress'; tool_call_id: string; name: string; event: unknown }
  /** A tool call ended; its tool message follows as a `message` frame. */
  | {
      type: 'tool_result';
      tool_call_id: string;
      name: string;
      kind: AcpToolKind;
      status: 'success' | 'error';
      envelope: ToolEnvelope;
    }
  /** A tool call waits for an answer: a question, an approval, a client tool's output. */
  | { type: 'waiting'; tool_call_id: string; name: string; kind: InteractionKind; payload: unknown }
  /** A wait was answered; the loop resumes. An approval names who answered it (IDN-10). */
  | {
      type: 'answered';
      tool_call_id: string;
      kind: InteractionKind;
      answered_by?: { subject: string; role: string };
      approved?: boolean;
    }
  /** The thread's status changed. */
  | { type: 'status'; status: ThreadStatus; reason?: string }
  /** A turn failed (the model could not be reached, a limit was hit). */
  | { type: 'error'; code: string; message: string }
  /** A model step's usage, with the turn's and the thread's totals after it (THR-4). */
  | { type: 'usage'; message_id: string; model: string; step: UsageTotals; turn: UsageTotals; thread: UsageTotals }
  /** A custom event a tool sent with `state.emit`. */
  | { type: 'event'; event: string; data: unknown }
  /** A tool's context was set (CTX-1): the whole stored value; `tool` is null for the shared context. */
  | { type: 'context_updated'; tool: string | null; scope: 'local' | 'shared'; context: Record<string, unknown> };

export type NumberedFrame = Frame & { seq: number };

export type FrameSink = (frame: Frame) => void;
