/**
 * A user's message with files (MSG-1 to MSG-7), received by the thread's object: its files stored
 * one after another under `/attachments/` (or referenced by path), then the message handed to the
 * inbox with them as its `attachments`, like any message (`on_busy`, Idempotency-Key, trace context,
 * the inbox bound). All or nothing: a refusal at any point — a file refused, the quota reached, a
 * body that breaks off, the inbox refusing the message, a replayed key — removes every file stored
 * for the message, so nothing of it stays and the thread's quota is as it was. Files stored are
 * outside text to the model (INJ-1), like an upload.
 */
import { noteOutsideFile } from '../../engine/execute/index.js';
import {
  type ApiError,
  fail,
  type MessageWithFilesInput,
  type PostMessageAnswer,
  type RpcResult,
} from '../bindings/index.js';
import { type CountedFileStore, StorageQuotaExceeded } from '../files/index.js';
import { type AnswerDesk, acceptMessage } from '../inbox/index.js';
import type { IntakeDesk, MessageDraft } from './message-draft.js';
import { MessageFileRefused } from './message-file-refusals.js';
import { gatherParts } from './message-parts.js';
import { gatherMultipart } from './multipart-message.js';
import { MultipartError } from './multipart-reader.js';

/** The answer to a refusal found on the way; anything else is a failure of the runtime's and is thrown. */
function refusalOf(error: unknown): ApiError | null {
  if (error instanceof MessageFileRefused) return error.apiError;
  if (error instanceof MultipartError) return { status: 400, code: 'invalid_multipart', message: error.message };
  if (error instanceof StorageQuotaExceeded) {
    return {
      status: 413,
      code: 'storage_quota_exceeded',
      message: error.message,
      details: { bytes: error.used, quota_bytes: error.quota },
    };
  }
  return null;
}

/**
 * Removes what a refused message stored. Through the store that records no file history: the files
 * never belonged to the thread, so no fork or rewind is to find a copy of them.
 */
async function removeAll(files: CountedFileStore, paths: readonly string[]): Promise<void> {
  const unrecorded = files.unrecorded();
  for (const path of paths) await unrecorded.delete(path);
}

async function gather(
  desk: IntakeDesk,
  input: MessageWithFilesInput,
  body: ReadableStream | null,
  draft: MessageDraft,
) {
  if (input.parts) {
    // A JSON body carries no stream: one given anyway is not read.
    await body?.cancel().catch(() => {});
    await gatherParts(input.parts, desk, draft);
  } else {
    await gatherMultipart(input.contentType, body, desk, draft);
  }
  if (draft.text === '' && draft.attachments.length === 0) {
    throw new MessageFileRefused({
      status: 400,
      code: 'invalid_request',
      message: 'the message has no text and no file',
    });
  }
}

export async function acceptMessageWithFiles(
  answers: AnswerDesk,
  files: CountedFileStore,
  input: MessageWithFilesInput,
  body: ReadableStream | null,
): Promise<RpcResult<PostMessageAnswer>> {
  const desk: IntakeDesk = { env: answers.env, files, limits: answers.registry.limits.messageFiles };
  const draft: MessageDraft = { text: '', attachments: [], created: [], identity: [] };
  try {
    await gather(desk, input, body, draft);
  } catch (error) {
    await removeAll(files, draft.created);
    const refusal = refusalOf(error);
    if (refusal) return fail(refusal);
    throw error;
  }
  const onBusy = input.onBusy ?? draft.onBusy;
  const answer = await acceptMessage(answers, {
    content: draft.text,
    attachments: draft.attachments,
    filesIdentity: draft.identity,
    idempotencyKey: input.idempotencyKey,
    ...(onBusy ? { onBusy } : {}),
    traceparent: input.traceparent,
  });
  // Refused, or a replay of a message stored before: the files just stored belong to nothing.
  if (!answer.ok || answer.value.replayed) {
    await removeAll(files, draft.created);
    return answer;
  }
  for (const path of draft.created) noteOutsideFile(answers.store, path);
  return answer;
}
