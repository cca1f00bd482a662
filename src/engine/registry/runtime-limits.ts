/**
 * What one thread may hold (ATT-6, THR-8), set in `createRuntime({ limits })`: the total size of its
 * files, and how many messages may wait in its inbox for a running turn.
 *
 * The defaults: 1 GiB of files per thread is ten uploads at the 100 MiB per-file limit, far beyond
 * what a conversation's attachments, tool outputs and sidecars come to, yet it keeps one key from
 * filling a bucket through a single thread. 100 waiting messages: queued messages are all handed to
 * the model at its next step, so a human never has more than a few waiting; a hundred is a client
 * gone wrong or a flood, and each one would otherwise grow the next model request.
 */
import { DefinitionError } from '../../spec/internal.js';

export interface RuntimeLimits {
  /**
   * Bytes a thread's files may take together: uploads, tool writes, attachments, truncation
   * sidecars and files copied from parent or child threads. Default 1 GiB.
   */
  threadStorageBytes?: number;
  /** Messages that may wait in a thread's inbox for its running turn (queued messages). Default 100. */
  inboxMessages?: number;
}

export type ThreadLimits = Readonly<Required<RuntimeLimits>>;

export const DEFAULT_LIMITS: ThreadLimits = { threadStorageBytes: 1024 ** 3, inboxMessages: 100 };

/** The limits with their defaults filled in; anything but a positive whole number is a definition error. */
export function threadLimits(limits: RuntimeLimits = {}): ThreadLimits {
  const resolved = { ...DEFAULT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new DefinitionError(`limits.${name} must be a positive whole number, not ${String(value)}`);
    }
  }
  return resolved;
}
