/**
 * A thread's messages: posting a user message (which starts a turn, or waits for the running one)
 * and reading the log in pages.
 */
import { expectOk, type TypedApi } from './http.js';
import type { ListMessagesQuery, MessagePage, PostMessageAnswer, PostMessageBody } from './resources.js';

export interface PostMessageOptions {
  /** Sent as `Idempotency-Key`: posting again with the same key stores nothing new (`replayed`). */
  idempotencyKey?: string;
}

export interface MessageCalls {
  /** `POST /api/threads/:id/messages` (202): `queued` while a turn runs. */
  post(id: string, body: PostMessageBody, options?: PostMessageOptions): Promise<PostMessageAnswer>;
  /** `GET /api/threads/:id/messages`: one page; `next_after` is the `after` of the next, null at the end. */
  list(id: string, query?: ListMessagesQuery): Promise<MessagePage>;
}

export function messageCalls(api: TypedApi): MessageCalls {
  return {
    post: (id, body, options = {}) => {
      const headers = options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey };
      return expectOk(api.POST('/api/threads/{id}/messages', { params: { path: { id } }, body, headers }));
    },
    list: (id, query) => expectOk(api.GET('/api/threads/{id}/messages', { params: { path: { id }, query } })),
  };
}
