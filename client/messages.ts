/**
 * A thread's messages: posting a user message (which starts a turn, or waits for the running one),
 * with files or without, and reading the log in pages.
 */
import { expectOk, rawRequest, type TypedApi } from './http.js';
import { formWithFiles, jsonBodyWithFiles, type MessageFile, sendsMultipart } from './message-files.js';
import type { Platform } from './options.js';
import type {
  EditAnswer,
  EditMessageBody,
  ListMessagesQuery,
  MessagePage,
  PostMessageAnswer,
  PostMessageBody,
} from './resources.js';

export interface PostMessageOptions {
  /** Sent as `Idempotency-Key`: posting again with the same key stores nothing new (`replayed`). */
  idempotencyKey?: string;
  /**
   * Files sent with the message, listed on it as `attachments` in this order: as base64 parts of
   * the JSON body while they come to 512 KiB together, otherwise as `multipart/form-data`.
   */
  files?: readonly MessageFile[];
  /** Sends the files as `multipart/form-data` whatever their size. */
  multipart?: boolean;
}

export interface MessageCalls {
  /** `POST /api/threads/:id/messages` (202): `queued` while a turn runs. */
  post(id: string, body: PostMessageBody, options?: PostMessageOptions): Promise<PostMessageAnswer>;
  /** `GET /api/threads/:id/messages`: one page; `next_after` is the `after` of the next, null at the end. */
  list(id: string, query?: ListMessagesQuery): Promise<MessagePage>;
  /**
   * `POST /api/threads/:id/messages/:mid/edit` (201): edit and resend the user message `mid`: a fork
   * of the thread just before it, with the new message, whose turn starts; the original is unchanged.
   */
  edit(id: string, messageId: string, body: EditMessageBody): Promise<EditAnswer>;
}

export function messageCalls(api: TypedApi, platform: Platform): MessageCalls {
  async function post(id: string, body: PostMessageBody, options: PostMessageOptions = {}) {
    const headers: Record<string, string> =
      options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey };
    const files = options.files ?? [];
    if (files.length > 0 && sendsMultipart(files, options.multipart)) {
      // The browser or runtime writes the multipart Content-Type, boundary included.
      const path = `/api/threads/${encodeURIComponent(id)}/messages`;
      const response = await rawRequest(platform, path, { method: 'POST', body: formWithFiles(body, files), headers });
      return (await response.json()) as PostMessageAnswer;
    }
    const json = files.length > 0 ? await jsonBodyWithFiles(body, files) : body;
    return expectOk(api.POST('/api/threads/{id}/messages', { params: { path: { id } }, body: json, headers }));
  }
  return {
    post,
    list: (id, query) => expectOk(api.GET('/api/threads/{id}/messages', { params: { path: { id }, query } })),
    edit: (id, mid, body) =>
      expectOk(api.POST('/api/threads/{id}/messages/{mid}/edit', { params: { path: { id, mid } }, body })),
  };
}
