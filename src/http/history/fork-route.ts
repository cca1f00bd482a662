/**
 * `POST /api/threads/:id/fork` (FORK-2): a new thread holding the source's log up to a message, its
 * files as they were there, its variables, secrets, rules and tool contexts, owned by the caller and
 * admitted like any new thread (the tenant's thread-start limits). The fork is idle.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  AUTH_FAILURES,
  ForkThreadBody,
  failure,
  json,
  jsonBody,
  jsonRequest,
  ThreadParams,
} from '../contract/index.js';
import { ForkAnswerSchema } from './answers.js';
import { POINT_CONFLICTS, POINT_NOT_FOUND } from './refusals.js';

/** The 429 of a refused thread start. */
export const THREAD_START_REFUSED = {
  ...failure("`rate_limited`: the tenant's or your limit of threads started per hour is reached; nothing is created"),
  headers: z.object({ 'Retry-After': z.string().describe('Seconds to wait before trying again') }),
};

export const forkThreadRoute = createRoute({
  method: 'post',
  path: '/{id}/fork',
  operationId: 'forkThread',
  tags: ['threads'],
  summary: 'Fork the thread at a message: a new thread with the log up to it and the files as they were there',
  middleware: [jsonBody()],
  request: { params: ThreadParams, body: jsonRequest(ForkThreadBody) },
  responses: {
    201: json(ForkAnswerSchema, 'The fork, idle, and what it did not take'),
    400: failure('`invalid_request`, `invalid_json`, `unknown_agent`, `missing_variables`'),
    403: failure('`forbidden`: this role may not change the thread, or start threads'),
    404: POINT_NOT_FOUND,
    409: failure(`${POINT_CONFLICTS}; \`point_running\`: the point is inside the turn the thread is running`),
    413: failure("`storage_quota_exceeded`: the files at the point do not fit a thread's quota"),
    429: THREAD_START_REFUSED,
    ...AUTH_FAILURES,
  },
});
