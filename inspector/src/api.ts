/**
 * The page's one way to the server: the client library, bound to this origin and the signed-in key,
 * and the few calls whose bodies the page builds itself (a message with files as multipart).
 */
import {
  ApiError,
  type Client,
  createClient,
  type EditMessageBody,
  type PostMessageAnswer,
} from '../../client/index.js';
import type { Message } from './types.js';

/** A part of a message's content sent as JSON: text, or a file's bytes in base64. */
export type ContentPart = Exclude<EditMessageBody['content'], string>[number];

/** What `on_busy` may ask of a message posted while a turn runs. */
export type OnBusy = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

export class Api {
  readonly client: Client;

  constructor(readonly apiKey: string) {
    this.client = createClient({ baseUrl: location.origin, apiKey });
  }

  /** The whole log, page after page. */
  async messages(id: string): Promise<Message[]> {
    const all: Message[] = [];
    let after = 0;
    for (;;) {
      const page = await this.client.messages.list(id, { after, limit: 1000 });
      all.push(...page.messages);
      if (page.next_after === null || page.messages.length === 0) return all;
      after = page.next_after;
    }
  }

  /**
   * Posts a user message with files as `multipart/form-data`: the text as `content`, each file as a
   * `file` part, so a large file streams instead of travelling as base64 in JSON.
   */
  postWithFiles(id: string, content: string, files: readonly File[], onBusy: OnBusy | ''): Promise<PostMessageAnswer> {
    const form = new FormData();
    form.append('content', content);
    if (onBusy) form.append('on_busy', onBusy);
    for (const file of files) form.append('file', file, file.name);
    return this.send(`/api/threads/${encodeURIComponent(id)}/messages`, { method: 'POST', body: form });
  }

  /** A request with the key; a failed answer throws the ApiError its body describes. */
  private async send<T>(path: string, init: RequestInit): Promise<T> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.apiKey}`);
    const response = await fetch(`${location.origin}${path}`, { ...init, headers });
    if (!response.ok) throw await ApiError.fromResponse(response);
    return (await response.json()) as T;
  }

  /** Saves a file of the thread: the key travels in a header, so the page fetches the bytes itself. */
  async download(id: string, path: string): Promise<void> {
    const response = await this.client.files.get(id, path);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = path.split('/').pop() || 'download';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** A thread file's bytes as a Blob (an image to show, a file to send again). */
  async blob(id: string, path: string): Promise<Blob> {
    const response = await this.client.files.get(id, path);
    return await response.blob();
  }
}

/** What to tell the user about a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.status} ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
