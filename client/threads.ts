/**
 * Agents and threads: what the Worker serves, and creating, listing, inspecting, stopping,
 * deleting, forking and rewinding threads.
 */
import { expectOk, type TypedApi } from './http.js';
import type {
  AgentList,
  CreateThreadBody,
  ForkAnswer,
  ForkThreadBody,
  ListThreadsQuery,
  RewindAnswer,
  RewindThreadBody,
  ThreadDetails,
  ThreadPage,
} from './resources.js';

export interface AgentCalls {
  /** `GET /api/agents`: agents, their prompts and tools, and the models with whether each is configured. */
  list(): Promise<AgentList>;
}

export interface ThreadCalls {
  /** `POST /api/threads` (201): a trailing user message in `messages` starts a turn. */
  create(body: CreateThreadBody): Promise<ThreadDetails>;
  /** `GET /api/threads`: your threads, newest first; `next_cursor` is the `cursor` of the next page. */
  list(query?: ListThreadsQuery): Promise<ThreadPage>;
  /**
   * `GET /api/threads` again, for a list kept up to date: with the `etag` of the page last seen, null
   * while that page is unchanged (the server answers 304 and sends nothing), else the new page and tag.
   */
  listIfChanged(query: ListThreadsQuery | undefined, etag: string | null): Promise<TaggedThreadPage | null>;
  /** `GET /api/threads/:id`: status, `waiting_for`, `last_frame_seq`, usage. */
  get(id: string): Promise<ThreadDetails>;
  /** `DELETE /api/threads/:id` (204): stops the thread and deletes its storage and files. */
  delete(id: string): Promise<void>;
  /** `POST /api/threads/:id/stop`: aborts the running step (and the children's). */
  stop(id: string): Promise<ThreadDetails>;
  /**
   * `POST /api/threads/:id/terminate`: ends the thread for good (its step and children stopped, its
   * parent told); later messages are refused with 409 `thread_terminated`. Again: nothing changes.
   */
  terminate(id: string): Promise<ThreadDetails>;
  /**
   * `POST /api/threads/:id/fork` (201): a new idle thread, yours, with the log up to `at` and the files
   * as they were there; `not_copied` names the waits and child threads it left behind. 409
   * `point_mid_round` names the nearest points (`details.before`, `details.after`).
   */
  fork(id: string, body: ForkThreadBody): Promise<ForkAnswer>;
  /**
   * `POST /api/threads/:id/rewind`: removes the log after `to` and puts the files back as they were
   * there. 409 `side_effects` lists calls that may have changed things outside the thread: `force: true`
   * rewinds anyway, without undoing them.
   */
  rewind(id: string, body: RewindThreadBody): Promise<RewindAnswer>;
}

/** A page of threads with the `ETag` that names it. */
export interface TaggedThreadPage {
  page: ThreadPage;
  etag: string | null;
}

export function agentCalls(api: TypedApi): AgentCalls {
  return {
    list: () => expectOk(api.GET('/api/agents')),
  };
}

export function threadCalls(api: TypedApi): ThreadCalls {
  const path = (id: string) => ({ path: { id } });
  return {
    create: (body) => expectOk(api.POST('/api/threads', { body })),
    list: (query) => expectOk(api.GET('/api/threads', { params: { query } })),
    listIfChanged: async (query, etag) => {
      const header = etag === null ? {} : { 'if-none-match': etag };
      const answer = await api.GET('/api/threads', { params: { query, header } });
      if (answer.response.status === 304) return null;
      return { page: await expectOk(Promise.resolve(answer)), etag: answer.response.headers.get('etag') };
    },
    get: (id) => expectOk(api.GET('/api/threads/{id}', { params: path(id) })),
    delete: async (id) => {
      await expectOk(api.DELETE('/api/threads/{id}', { params: path(id) }));
    },
    stop: (id) => expectOk(api.POST('/api/threads/{id}/stop', { params: path(id) })),
    terminate: (id) => expectOk(api.POST('/api/threads/{id}/terminate', { params: path(id) })),
    fork: (id, body) => expectOk(api.POST('/api/threads/{id}/fork', { params: path(id), body })),
    rewind: (id, body) => expectOk(api.POST('/api/threads/{id}/rewind', { params: path(id), body })),
  };
}
