/**
 * The files of a user's message as the model is sent them (MSG-10): each user message the request
 * shows that carries attachments becomes its text, then per file an image part, a PDF file part, a
 * text file's text or a note (attachment-parts.ts). The bytes are read from the thread's files once
 * per message for the turn's life, like tool images (tool-images.ts): every step of a turn sends the
 * same parts without reading storage again.
 */
import type { AttachmentRef, Message, ModelContentPart } from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
import {
  binaryParts,
  bytesMatchType,
  type FileReading,
  fileNote,
  MAX_INLINE_BYTES_PER_REQUEST,
  MAX_INLINE_IMAGE_BYTES,
  MAX_INLINE_PDF_BYTES,
  MAX_INLINE_TEXT_BYTES,
  sendingOf,
  textPart,
} from './attachment-parts.js';
import type { Shown } from './shown.js';

/** Reads text files in pieces this size, so a large one is read only as far as it is sent. */
const TEXT_CHUNK_BYTES = 64 * 1024;

export class MessageFiles {
  /** The content of each loaded message, by id; one map for the turn, so requests can remember what it gave. */
  private readonly parts = new Map<string, ModelContentPart[]>();
  /** Bytes of images and PDFs a request may still carry. */
  private budget = MAX_INLINE_BYTES_PER_REQUEST;
  /** The part of the log scanned already (logs only grow): a step reads only the messages added since. */
  private scanned = { from: Number.POSITIVE_INFINITY, to: 0 };

  constructor(
    private readonly files: ThreadFiles,
    private readonly reading: FileReading,
  ) {}

  /**
   * The content of every user message of `log` from index `from` on that `shown` sends and that
   * carries files, keyed by message id. Newest first, so the budget goes to the latest files.
   */
  async partsFor(
    log: readonly Message[],
    from: number,
    shown: Shown,
  ): Promise<ReadonlyMap<string, ModelContentPart[]>> {
    const start = Math.max(from, 0);
    const stop = start >= this.scanned.from ? Math.max(start, this.scanned.to) : start;
    this.scanned = { from: Math.min(start, this.scanned.from), to: Math.max(log.length, this.scanned.to) };
    for (let index = log.length - 1; index >= stop; index--) {
      const message = log[index] as Message;
      if (message.role !== 'user' || !message.attachments?.length || this.parts.has(message.id)) continue;
      if (!shown(message)) continue;
      const content: ModelContentPart[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const ref of message.attachments as AttachmentRef[]) content.push(...(await this.fileParts(ref)));
      this.parts.set(message.id, content);
    }
    return this.parts;
  }

  private async fileParts(ref: AttachmentRef): Promise<ModelContentPart[]> {
    const sending = sendingOf(ref, this.reading);
    if (sending === 'note') return [fileNote(ref)];
    try {
      // The file may have changed since the message was sent: what it holds now is what is sent.
      const stat = await this.files.stat(ref.path);
      if (!stat) return [fileNote(ref, 'it is no longer in the thread')];
      if (sending === 'text') return [textPart(ref, await this.head(ref.path), stat.size)];
      const limit = sending === 'image' ? MAX_INLINE_IMAGE_BYTES : MAX_INLINE_PDF_BYTES;
      if (stat.size > limit || stat.size > this.budget) return [fileNote(ref)];
      const bytes = await this.files.read(ref.path);
      if (!bytes || bytes.length > limit || bytes.length > this.budget) return [fileNote(ref)];
      // Bytes that are not what their type says would make the provider refuse every later request.
      if (!bytesMatchType(bytes, ref.mimeType)) return [fileNote(ref)];
      this.budget -= bytes.length;
      return binaryParts(ref, sending, bytes);
    } catch {
      // A path no longer valid, or storage failing for now: the model can still try a tool.
      return [fileNote(ref)];
    }
  }

  /** The first `MAX_INLINE_TEXT_BYTES` of a file (all of a smaller one); stopping early cancels the read. */
  private async head(path: string): Promise<Uint8Array> {
    const chunks = await this.files.readStream(path, { chunkSize: TEXT_CHUNK_BYTES });
    const head = new Uint8Array(MAX_INLINE_TEXT_BYTES);
    let filled = 0;
    for await (const chunk of chunks ?? []) {
      const taken = Math.min(chunk.data.length, head.length - filled);
      head.set(chunk.data.subarray(0, taken), filled);
      filled += taken;
      if (filled === head.length) break;
    }
    return head.slice(0, filled);
  }
}
