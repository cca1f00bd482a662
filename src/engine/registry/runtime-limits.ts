/**
 * What one thread may hold (ATT-6, THR-8, SIDE-1), set in `createRuntime({ limits })`: the total size
 * of its files, how many messages may wait in its inbox for a running turn, and how long the full
 * text of a truncated tool output is kept, and how many bytes of earlier file versions it keeps for
 * forks and rewinds, and how often streamed model text is sent.
 *
 * The defaults: 1 GiB of files per thread is ten uploads at the 100 MiB per-file limit, far beyond
 * what a conversation's attachments, tool outputs and sidecars come to, yet it keeps one key from
 * filling a bucket through a single thread. 100 waiting messages: queued messages are all handed to
 * the model at its next step, so a human never has more than a few waiting; a hundred is a client
 * gone wrong or a flood, and each one would otherwise grow the next model request. Seven days of
 * sidecars: a conversation picked up within a week still finds the output it was shown the head of;
 * older ones only take room in the quota. 50 ms between text frames: about 20 a second still reads
 * as a live stream, while a fast model sends a token every few milliseconds, each otherwise a stored
 * row and a WebSocket message.
 */
import { DefinitionError } from '../../spec/internal.js';
import { DEFAULT_MESSAGE_FILE_LIMITS, type MessageFileLimits, messageFileLimits } from './message-file-limits.js';

export interface RuntimeLimits {
  /**
   * Bytes a thread's files may take together: uploads, tool writes, attachments, truncation
   * sidecars and files copied from parent or child threads. Default 1 GiB.
   */
  threadStorageBytes?: number;
  /** Messages that may wait in a thread's inbox for its running turn (queued messages). Default 100. */
  inboxMessages?: number;
  /**
   * Milliseconds a truncation sidecar (a long tool output's whole text, under `/.tool-output/`) is
   * kept after it is written; the thread's alarm then removes it (SIDE-1). Default 7 days.
   */
  toolOutputRetentionMs?: number;
  /**
   * Bytes of earlier file versions a thread keeps for forks and rewinds (FORK-7): past it the oldest
   * go, and points that needed them can no longer be reached. Default: `threadStorageBytes`.
   */
  fileHistoryBytes?: number;
  /**
   * Milliseconds between two `message_delta` frames of one model step: the text streamed in between
   * is sent joined in one frame (THR-9). 0 sends every delta the model streams. Default 50.
   */
  deltaFlushMs?: number;
  /** Files on a user's message: sizes, count, types, image sides (message-file-limits.ts). */
  messageFiles?: Partial<MessageFileLimits>;
}

type CountLimits = Omit<RuntimeLimits, 'messageFiles'>;

export type ThreadLimits = Readonly<Required<CountLimits>> & { readonly messageFiles: Readonly<MessageFileLimits> };

export const DEFAULT_LIMITS: ThreadLimits = {
  threadStorageBytes: 1024 ** 3,
  inboxMessages: 100,
  toolOutputRetentionMs: 7 * 24 * 60 * 60 * 1000,
  fileHistoryBytes: 1024 ** 3,
  deltaFlushMs: 50,
  messageFiles: DEFAULT_MESSAGE_FILE_LIMITS,
};

/** Limits that may be 0 (a 0 interval turns the coalescing off). */
const MAY_BE_ZERO = new Set(['deltaFlushMs']);

/**
 * The limits with their defaults filled in; anything but a positive whole number (or 0, where
 * MAY_BE_ZERO allows it) is a definition error.
 */
export function threadLimits(limits: RuntimeLimits = {}): ThreadLimits {
  const { messageFiles, ...counts } = limits;
  const { messageFiles: _defaults, ...defaults } = DEFAULT_LIMITS;
  // The file history holds, by default, as much as the thread's files may take.
  const resolved = {
    ...defaults,
    fileHistoryBytes: counts.threadStorageBytes ?? defaults.threadStorageBytes,
    ...counts,
  };
  for (const [name, value] of Object.entries(resolved)) {
    const least = MAY_BE_ZERO.has(name) ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least) {
      const kind = least === 0 ? 'whole number of 0 or more' : 'positive whole number';
      throw new DefinitionError(`limits.${name} must be a ${kind}, not ${String(value)}`);
    }
  }
  return { ...resolved, messageFiles: messageFileLimits(messageFiles) };
}
