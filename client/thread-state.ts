/**
 * What a user interface shows of a thread, as a pure reducer over what the client learns: the
 * thread and its log when first loaded, then every frame. `useThread` (client/react.ts) runs it
 * with React's `useReducer`; anything else (a test, another framework) can run it by hand.
 * Messages are unique by id and ordered by seq; text still streaming is kept per message id until
 * the message itself arrives, and so are a tool call's arguments while they stream and a long call's
 * running time (call-activity.ts).
 */
import { type CallActivity, nextCallActivity, noCallActivity } from './call-activity.js';
import type { Frame } from './frames.js';
import { waitFromFrame } from './frames.js';
import type { StreamState } from './thread-stream.js';
import type { Message, ThreadStatus, WaitingFor } from './wire.js';

export interface ThreadViewError {
  code: string;
  message: string;
}

export interface ThreadView extends CallActivity {
  /** Every frame received, in order. */
  frames: Frame[];
  /** The log: the initial page merged with every `message` frame, by seq. */
  messages: Message[];
  /** `loading` until the thread has been read. */
  status: ThreadStatus | 'loading';
  /** The calls waiting for an answer, oldest first. */
  waitingFor: WaitingFor[];
  /** Model text not yet part of a message, per message id. */
  streamingText: Record<string, string>;
  /** The last failure: a request's ApiError, a turn's `error` frame, a closed stream. */
  error: ThreadViewError | null;
  connection: StreamState;
  /** The seq of the last frame applied. */
  lastSeq: number;
}

/** What loading a thread brings: its details and its whole log. */
export interface LoadedThread {
  status: ThreadStatus;
  waiting_for: WaitingFor[];
  last_frame_seq: number;
}

export type ThreadAction =
  /** Another thread, or the same one read afresh: everything shown so far is dropped. */
  | { type: 'reset' }
  | { type: 'loaded'; thread: LoadedThread; messages: readonly Message[] }
  | { type: 'frame'; frame: Frame }
  | { type: 'connection'; state: StreamState }
  | { type: 'failed'; error: ThreadViewError };

export const initialThreadView: ThreadView = {
  frames: [],
  messages: [],
  status: 'loading',
  waitingFor: [],
  streamingText: {},
  ...noCallActivity,
  error: null,
  connection: 'connecting',
  lastSeq: 0,
};

/** `messages` with `incoming` added or replacing the message of the same id, ordered by seq. */
export function mergeMessages(messages: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

function without<V>(record: Record<string, V>, key: string): Record<string, V> {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

function applyFrame(view: ThreadView, frame: Frame): ThreadView {
  const { streamingCalls, runningCalls } = nextCallActivity(view, frame);
  const next: ThreadView = {
    ...view,
    frames: [...view.frames, frame],
    lastSeq: frame.seq,
    streamingCalls,
    runningCalls,
  };
  switch (frame.type) {
    case 'message':
      return {
        ...next,
        messages: mergeMessages(view.messages, [frame.message]),
        streamingText: without(view.streamingText, frame.message.id),
      };
    case 'message_updated':
      return { ...next, messages: mergeMessages(view.messages, [frame.message]) };
    case 'message_deleted': {
      const gone = new Set(frame.message_ids);
      return { ...next, messages: view.messages.filter((message) => !gone.has(message.id)) };
    }
    case 'rewound': {
      const kept = view.messages.find((message) => message.id === frame.to);
      return kept ? { ...next, messages: view.messages.filter((message) => message.seq <= kept.seq) } : next;
    }
    case 'message_delta':
      return {
        ...next,
        streamingText: {
          ...view.streamingText,
          [frame.message_id]: (view.streamingText[frame.message_id] ?? '') + frame.delta,
        },
      };
    case 'message_abandoned':
      return { ...next, streamingText: without(view.streamingText, frame.message_id) };
    case 'status': {
      const settled = frame.status === 'idle' || frame.status === 'error' || frame.status === 'terminated';
      return {
        ...next,
        status: frame.status,
        // A settled thread waits for nothing and streams nothing; a new turn clears the last error.
        waitingFor: settled ? [] : view.waitingFor,
        streamingText: settled ? {} : view.streamingText,
        error: frame.status === 'running' ? null : view.error,
      };
    }
    case 'waiting':
      return view.waitingFor.some((wait) => wait.tool_call_id === frame.tool_call_id)
        ? next
        : { ...next, waitingFor: [...view.waitingFor, waitFromFrame(frame)] };
    case 'answered':
      return { ...next, waitingFor: view.waitingFor.filter((wait) => wait.tool_call_id !== frame.tool_call_id) };
    case 'error':
      return { ...next, error: { code: frame.code, message: frame.message } };
    default:
      return next;
  }
}

export function threadReducer(view: ThreadView, action: ThreadAction): ThreadView {
  switch (action.type) {
    case 'reset':
      return initialThreadView;
    case 'loaded': {
      // Frames applied before the load are newer than it: they keep their status and waits.
      const framesFirst = view.lastSeq > action.thread.last_frame_seq;
      return {
        ...view,
        messages: mergeMessages(action.messages, view.messages),
        status: framesFirst && view.status !== 'loading' ? view.status : action.thread.status,
        waitingFor: framesFirst ? view.waitingFor : action.thread.waiting_for,
      };
    }
    case 'frame':
      // A frame applied already (a replay, an effect run twice) changes nothing.
      return action.frame.seq <= view.lastSeq ? view : applyFrame(view, action.frame);
    case 'connection':
      return action.state === view.connection ? view : { ...view, connection: action.state };
    case 'failed':
      return { ...view, error: action.error };
  }
}
