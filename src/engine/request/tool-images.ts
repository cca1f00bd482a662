/**
 * Images returned by tools reach multimodal models as image parts (EXE-9). The Chat Completions
 * protocol takes images only in user messages, so a step's images follow its tool results as one
 * user message; text-only models keep the attachment note already in the tool message.
 */
import type { Message, ModelContentPart } from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
// Larger images are left as a note: most providers refuse them and they bloat every request.
import { MAX_INLINE_IMAGE_BYTES, toBase64 } from './attachment-parts.js';

/** Loads image attachments of tool messages as data URLs, each once per cache. */
export class ToolImages {
  private readonly cache = new Map<string, ModelContentPart[]>();

  constructor(private readonly files: ThreadFiles) {}

  /** Image parts for every tool message in `messages` that returned images, keyed by message id. */
  async partsFor(messages: readonly Message[]): Promise<Map<string, ModelContentPart[]>> {
    const parts = new Map<string, ModelContentPart[]>();
    for (const message of messages) {
      if (message.role !== 'tool' || !message.attachments) continue;
      const images = message.attachments.filter(
        (ref) => ref.mimeType.startsWith('image/') && ref.size <= MAX_INLINE_IMAGE_BYTES,
      );
      if (images.length === 0) continue;
      let loaded = this.cache.get(message.id);
      if (!loaded) {
        loaded = [];
        for (const ref of images) {
          const bytes = await this.files.read(ref.path);
          if (!bytes) continue;
          loaded.push({ type: 'text', text: `Image ${ref.path} returned by tool ${message.name ?? ''}:` });
          loaded.push({ type: 'image_url', image_url: { url: `data:${ref.mimeType};base64,${toBase64(bytes)}` } });
        }
        this.cache.set(message.id, loaded);
      }
      if (loaded.length > 0) parts.set(message.id, loaded);
    }
    return parts;
  }
}
