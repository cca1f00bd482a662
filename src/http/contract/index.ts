/**
 * The API contract's door (THR-5, THR-6): request schemas and their validation, the JSON error
 * shape, bearer authentication, the OpenAPI document, and the env every route sees.
 */
export { bearerAuth } from './auth.js';
export { errorResponse, HttpError, unwrap } from './errors.js';
export type { AuthVariables, HttpEnv } from './http-env.js';
export { openApiDocument } from './openapi.js';
export { MAX_JSON_BODY_BYTES, readJson, readQuery } from './request-body.js';
export {
  AnswersBody,
  ApprovalsBody,
  CreateThreadBody,
  DeferredVariablesBody,
  ListMessagesQuery,
  ListThreadsQuery,
  PostMessageBody,
  SecretsBody,
  StreamQuery,
  ThreadIdParam,
  ToolResultsBody,
} from './schemas.js';
