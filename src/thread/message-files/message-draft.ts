/**
 * A message being put together from its parts (MSG-1 to MSG-4): its text, its files in order, and
 * the paths stored for it so far, which a refusal removes again; and what the intake works with.
 */
import type { MessageFileLimits } from '../../engine/registry/index.js';
import type { AttachmentRef, OnBusy } from '../../spec/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import type { CountedFileStore } from '../files/index.js';

export interface MessageDraft {
  text: string;
  attachments: AttachmentRef[];
  /** Files stored for this message (not the `path` parts it only references). */
  created: string[];
  /** Each file as the sender gave it (name, type, size; or the path referenced): the Idempotency-Key's fingerprint. */
  identity: unknown[];
  /** A multipart body's own `on_busy` field. */
  onBusy?: OnBusy;
}

export interface IntakeDesk {
  env: RuntimeEnv;
  files: CountedFileStore;
  limits: MessageFileLimits;
}
