/**
 * `POST /api/threads/:id/messages/:mid/edit` (FORK-3): edit and resend. The thread is forked just
 * before the user message `mid` (an empty fork when it is the first) and the new content is posted
 * to the fork, whose turn starts; the original thread is unchanged.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  AUTH_FAILURES,
  EditMessageBody,
  failure,
  json,
  jsonBody,
  jsonRequest,
  ThreadParams,
} from '../contract/index.js';
import { EditAnswerSchema } from './answers.js';
import { THREAD_START_REFUSED } from './fork-route.js';
import { POINT_CONFLICTS, POINT_NOT_FOUND } from './refusals.js';

const EditParams = ThreadParams.extend({
  mid: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'mid', in: 'path' }, description: 'The user message to edit' }),
});

export const editMessageRoute = createRoute({
  method: 'post',
  path: '/{id}/messages/{mid}/edit',
  operationId: 'editMessage',
  tags: ['messages'],
  summary: 'Edit a user message and resend it: a fork just before it, with the new message, which starts a turn',
  middleware: [jsonBody()],
  request: { params: EditParams, body: jsonRequest(EditMessageBody) },
  responses: {
    201: json(EditAnswerSchema, 'The fork, with the new message posted'),
    400: failure(
      '`invalid_request`, `invalid_json`, `invalid_on_busy`, or `not_a_user_message`: only user messages are edited',
    ),
    403: failure('`forbidden`: this role may not change the thread, or start threads'),
    404: POINT_NOT_FOUND,
    409: failure(`${POINT_CONFLICTS} (for the message before the edited one); \`point_running\``),
    413: failure(
      "`body_too_large`, or `storage_quota_exceeded`: the files before the message do not fit a thread's quota",
    ),
    429: THREAD_START_REFUSED,
    ...AUTH_FAILURES,
  },
});
