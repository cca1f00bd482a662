/**
 * Turns what a tool returned into what the runtime keeps (EXE-4): the text the model reads, the
 * seed 003 envelope, stored attachments (ATT-1, ATT-2) and the stack kept only for debugging. Text
 * over the tool's limits is cut to a head with the whole of it in a sidecar file (LOCK-6).
 */
import type { AttachmentRef, EnvelopeMetadata, ToolAttachment, ToolEnvelope, ToolResult } from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
import {
  attachmentPath,
  normalizeThreadPath,
  type TruncatedText,
  type TruncationTarget,
  truncateOutput,
} from '../files/index.js';
import { envelopeData } from './envelope-data.js';
import { errorTextOf } from './tool-call-error.js';

const FAILED_WITHOUT_MESSAGE = 'Tool failed without a message.';

export interface ShapedResult {
  /** An error when the tool failed or its attachments could not be stored. */
  status: 'success' | 'error';
  content: string;
  envelope: ToolEnvelope;
  attachments: AttachmentRef[];
  stack: string | undefined;
}

export interface ShapeOptions {
  files: ThreadFiles;
  scrub(text: string): string;
  durationMs: number;
  /** The call and its limits (LOCK-6); without it the text is kept whole. */
  truncation?: TruncationTarget;
}

function isReference(attachment: ToolAttachment | AttachmentRef): attachment is AttachmentRef {
  return (attachment as AttachmentRef).type === 'file' && typeof (attachment as AttachmentRef).path === 'string';
}

/** Per tool attachment: larger files belong in the thread filesystem, written as they are produced. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

function decodeBase64(data: string): Uint8Array {
  // Base64 carries 3 bytes in 4 characters: refuse before decoding, not after.
  if ((data.length * 3) / 4 > MAX_ATTACHMENT_BYTES + 3) {
    throw new Error(`an attachment is larger than the ${MAX_ATTACHMENT_BYTES} byte limit`);
  }
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Stores new attachments under /attachments/ (ATT-1); references pass through unstored (ATT-2). */
async function storeAttachments(
  list: ReadonlyArray<ToolAttachment | AttachmentRef>,
  files: ThreadFiles,
): Promise<AttachmentRef[]> {
  const stored: AttachmentRef[] = [];
  for (const attachment of list) {
    if (isReference(attachment)) {
      // A reference must name a file of this thread (ATT-3) that exists; it passes through unstored (ATT-2).
      const path = normalizeThreadPath(attachment.path);
      if (!(await files.stat(path))) throw new Error(`the attachment ${path} is not a file of this thread`);
      stored.push({ ...attachment, path });
      continue;
    }
    stored.push(
      await files.write(attachmentPath(attachment.name), decodeBase64(attachment.data), {
        mimeType: attachment.mimeType,
        width: attachment.width,
        height: attachment.height,
      }),
    );
  }
  return stored;
}

/** `result` and `error` are strings by the spec; anything else a tool returns is serialised, not trusted. */
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Applies the call's limits to already scrubbed text: a sidecar keeps what the head leaves out. */
async function limit(text: string, options: ShapeOptions): Promise<TruncatedText> {
  if (!options.truncation) return { head: text, shown: text, truncated: false };
  return truncateOutput(text, options.files, options.truncation);
}

function metadataOf(durationMs: number, cut: TruncatedText): EnvelopeMetadata {
  const metadata: EnvelopeMetadata = { duration_ms: Math.max(0, Math.round(durationMs)) };
  if (cut.truncated) metadata.truncated = true;
  if (cut.outputPath !== undefined) metadata.output_path = cut.outputPath;
  return metadata;
}

export async function shapeResult(result: ToolResult, options: ShapeOptions): Promise<ShapedResult> {
  let attachments: AttachmentRef[] = [];
  let attachmentError: string | null = null;
  if (Array.isArray(result.attachments) && result.attachments.length > 0) {
    try {
      attachments = await storeAttachments(result.attachments, options.files);
    } catch (error) {
      attachmentError = `attachments could not be stored: ${(error as Error).message}`;
    }
  }
  const stackText = asText(result.stack);
  const stack = stackText ? options.scrub(stackText) : undefined;
  if (result.status === 'error' || attachmentError) {
    const errorText = options.scrub(
      [
        result.status === 'error' ? errorTextOf(asText(result.error) ?? '') || FAILED_WITHOUT_MESSAGE : null,
        attachmentError,
      ]
        .filter(Boolean)
        .join('; '),
    );
    const cut = await limit(errorText, options);
    return {
      status: 'error',
      content: `Error: ${cut.shown}`,
      envelope: { type: 'error', error_text: cut.shown, metadata: metadataOf(options.durationMs, cut) },
      attachments,
      stack,
    };
  }
  const cut = await limit(options.scrub(asText(result.result) ?? ''), options);
  const notes = attachments.map((ref) => `[attachment ${ref.path} (${ref.mimeType}, ${ref.size} bytes)]`);
  return {
    status: 'success',
    content: [cut.shown, ...notes].filter((part) => part !== '').join('\n'),
    // ENV-1: the value as JSON, or the text; the closing line about a sidecar is for the model only.
    envelope: { type: 'output', data: envelopeData(cut), metadata: metadataOf(options.durationMs, cut) },
    attachments,
    stack,
  };
}
