/**
 * `POST /api/threads/:id/rewind` (FORK-6): the thread itself goes back to a message: the log after it
 * is removed and the files are put back as they were there. Refused while a turn runs or waits, and
 * over calls that may have changed things outside the thread unless `force` is given.
 */
import { createRoute } from '@hono/zod-openapi';
import {
  AUTH_FAILURES,
  failure,
  json,
  jsonBody,
  jsonRequest,
  RewindThreadBody,
  ThreadParams,
} from '../contract/index.js';
import { RewindAnswerSchema } from './answers.js';
import { POINT_CONFLICTS, POINT_NOT_FOUND } from './refusals.js';

export const rewindThreadRoute = createRoute({
  method: 'post',
  path: '/{id}/rewind',
  operationId: 'rewindThread',
  tags: ['threads'],
  summary: 'Rewind the thread to a message: later messages are removed and the files put back as they were there',
  middleware: [jsonBody()],
  request: { params: ThreadParams, body: jsonRequest(RewindThreadBody) },
  responses: {
    200: json(RewindAnswerSchema, 'The thread, rewound'),
    400: failure('`invalid_request`, `invalid_json`'),
    403: failure('`forbidden`: this role may not change the thread'),
    404: POINT_NOT_FOUND,
    409: failure(
      `\`thread_busy\`: a turn runs or waits for an answer; \`side_effects\`: calls after the point were of tools that are neither readOnly nor idempotent (\`details.calls\` lists \`tool_call_id\` and \`tool\`), send \`force: true\` to rewind anyway; ${POINT_CONFLICTS}. Nothing is changed`,
    ),
    ...AUTH_FAILURES,
  },
});
