/**
 * A thread's messages: posting a user message (which starts a turn, or waits for the running one)
 * and reading the log in pages.
 */
import { expectOk, type TypedApi } from './http.js';
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

export function messageCalls(api: TypedApi): MessageCalls {
  return {
    post: (id, body, options = {}) => {
      const headers = options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey };
      return expectOk(api.POST('/api/threads/{id}/messages', { params: { path: { id } }, body, headers }));
    },
    list: (id, query) => expectOk(api.GET('/api/threads/{id}/messages', { params: { path: { id }, query } })),
    edit: (id, mid, body) =>
      expectOk(api.POST('/api/threads/{id}/messages/{mid}/edit', { params: { path: { id, mid } }, body })),
  };
}
