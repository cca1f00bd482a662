/**
 * The page's one way to the server: the client library, bound to this origin and the signed-in key,
 * and the few calls whose bodies the page builds itself (a message with files as multipart).
 */
import { ApiError, type Client, createClient, type PostMessageAnswer } from '../../client/index.js';
import type { Message, ThreadDetails, ThreadSummary } from './types.js';

/** What a fork or an edit could not bring along: waits open at the point, child threads. */
export interface NotCopied {
  waits: string[];
  children: string[];
}

/** `POST /api/threads/:id/fork` (201). */
export interface ForkAnswer {
  thread: ThreadDetails;
  not_copied: NotCopied;
}

/** `POST /api/threads/:id/messages/:mid/edit` (201): the new thread and the edited message in it. */
export interface EditAnswer extends ForkAnswer {
  message_id: string;
}

/** A part of a message's content sent as JSON: text, or a file's bytes in base64. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'file'; data: string; mime_type: string; name: string };

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

  /** Forks the thread at message `at`: a new thread holding the log up to it and the files as they were. */
  fork(id: string, at: string): Promise<ForkAnswer> {
    return this.sendJson(`/api/threads/${encodeURIComponent(id)}/fork`, { at });
  }

  /** Sends `content` in place of user message `messageId`, in a new thread; the original stays as it is. */
  editMessage(id: string, messageId: string, content: string | ContentPart[]): Promise<EditAnswer> {
    const path = `/api/threads/${encodeURIComponent(id)}/messages/${encodeURIComponent(messageId)}/edit`;
    return this.sendJson(path, { content });
  }

  /** The threads forked from thread `id`, newest first (one page: the API's most). */
  async forks(id: string): Promise<ThreadSummary[]> {
    const query = new URLSearchParams({ forked_from: id, limit: '200' });
    const page = await this.send<{ threads: ThreadSummary[] }>(`/api/threads?${query}`, { method: 'GET' });
    return page.threads;
  }

  private sendJson<T>(path: string, body: unknown): Promise<T> {
    return this.send(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
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
