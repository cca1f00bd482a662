/**
 * The API contract's door (THR-5, THR-6): request and response schemas, the app routes are declared
 * on and its validation answers, JSON bodies, the JSON error shape, the
 * OpenAPI document, the security headers every answer carries, and the env every route sees.
 */
export { AgentListSchema } from './agent-schemas.js';
export { serveDocumented } from './documented-route.js';
export { entityTag, noneMatchHits } from './entity-tag.js';
export { errorResponse, HttpError, unwrap } from './errors.js';
export type { AuthVariables, HttpEnv } from './http-env.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
export { declareBearerAuth, openApiDocument } from './openapi-document.js';
export { jsonBody, MAX_JSON_BODY_BYTES } from './request-body.js';
export {
  AttachmentRefSchema,
  BootedChildSchema,
  DeferredChildViewSchema,
  ErrorSchema,
  FolderListingSchema,
  McpStartLinkSchema,
  type MessagePageBody,
  MessagePageSchema,
  PostMessageAnswerSchema,
  ServiceIndexSchema,
  ThreadDetailsSchema,
  ThreadListSchema,
  WaitingForSchema,
} from './response-schemas.js';
export { routeApp } from './route-app.js';
export { AUTH_FAILURES, failure, json, jsonRequest, THREAD_NOT_FOUND } from './route-parts.js';
export {
  AnswersBody,
  ApprovalsBody,
  ContentPart,
  CreateThreadBody,
  DeferredChildParams,
  DeferredVariablesBody,
  EditMessageBody,
  EventsHeaders,
  EventsQuery,
  FileParams,
  ForkThreadBody,
  ListMessagesQuery,
  ListThreadsHeaders,
  ListThreadsQuery,
  McpAuthorizationBody,
  MessageContent,
  MessageText,
  PostMessageBody,
  PostMessageForm,
  PostMessageHeaders,
  RewindThreadBody,
  SecretsBody,
  StreamQuery,
  ThreadIdParam,
  ThreadParams,
  ToolResultsBody,
} from './schemas.js';
export {
  INSPECTOR_POLICY,
  LOCKED_POLICY,
  securityHeaders,
  withSecurityHeaders,
} from './security-headers.js';
export { validationHook } from './validation-hook.js';
