/**
 * The client of the Standard Agents runtime's API, for browsers, Node (20 and later) and Workers:
 * typed calls for every route (checked against the served OpenAPI document), `ApiError` for every
 * failure, and a thread's frame stream that reconnects by itself and delivers each frame exactly
 * once, in order. The React hook is a separate entry (`client/react.ts`) so only React users load
 * React.
 */
export type { AnswerCalls } from './answers.js';
export { ApiError } from './api-error.js';
export type { AuditCalls } from './audit.js';
export { Backoff, type BackoffOptions } from './backoff.js';
export {
  type CallActivity,
  nextCallActivity,
  noCallActivity,
  type RunningCall,
  type StreamingCall,
} from './call-activity.js';
export { type Client, createClient } from './create-client.js';
export type { EffectCalls } from './effects.js';
export type { EndpointCalls } from './endpoints.js';
export type { FileCalls, UploadBody } from './files.js';
export { type Frame, type FrameOf, type FrameType, parseFrame } from './frames.js';
export type { KeyCalls } from './keys.js';
export type { LimitCalls } from './limits.js';
export { JSON_FILE_BYTES, type MessageFile } from './message-files.js';
export type { MessageCalls, PostMessageOptions } from './messages.js';
export type { components, paths } from './openapi.js';
export type {
  ClientOptions,
  EventSourceConstructor,
  EventSourceLike,
  FetchLike,
  WebSocketConstructor,
  WebSocketLike,
} from './options.js';
export type {
  AgentList,
  AgentSummary,
  ApiKey,
  ApiKeyPage,
  ApprovalAnswer,
  AuditAction,
  AuditEntry,
  AuditPage,
  BootedChild,
  CreatedWebhook,
  CreateKeyBody,
  CreateScheduleBody,
  CreateTenantScheduleBody,
  CreateThreadBody,
  CreateWebhookBody,
  DeferredChildView,
  EditAnswer,
  EditMessageBody,
  FolderEntry,
  FolderListing,
  ForkAnswer,
  ForkThreadBody,
  IssuedApiKey,
  LimitSet,
  LimitsQuery,
  LimitsView,
  ListAuditQuery,
  ListKeysQuery,
  ListMessagesQuery,
  ListThreadsQuery,
  ListWaitsQuery,
  ListWebhookDeliveriesQuery,
  MessagePage,
  ModelSummary,
  OpenWait,
  PostMessageAnswer,
  PostMessageBody,
  PromptSummary,
  ProvidedVariables,
  QuestionAnswer,
  RewindAnswer,
  RewindThreadBody,
  Role,
  Schedule,
  ScheduleList,
  SecretAnswer,
  Span,
  SpanList,
  TenantLimits,
  TenantSchedule,
  TenantScheduleList,
  ThreadDetails,
  ThreadEffect,
  ThreadEffectList,
  ThreadPage,
  ThreadSummary,
  ToolResultAnswer,
  ToolSummary,
  UpdateKeyBody,
  UpdateWebhookBody,
  UsageDimension,
  UsageReport,
  UsageRow,
  WaitPage,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryPage,
} from './resources.js';
export type { TenantScheduleCalls, ThreadScheduleCalls } from './schedules.js';
export { FrameSequencer, type Verdict } from './sequencer.js';
export type { SpanCalls, SpanQuery } from './spans.js';
export type { StreamOptions } from './stream.js';
export type { StreamState, ThreadStream } from './thread-stream.js';
export type { AgentCalls, TaggedThreadPage, ThreadCalls } from './threads.js';
export type { UsageCalls, UsageQuery } from './usage.js';
export type { VariableCalls } from './variables.js';
export type { WaitCalls } from './waits.js';
export type { WebhookCalls } from './webhooks.js';
export type {
  AcpToolKind,
  AttachmentRef,
  EnvelopeMetadata,
  InteractionKind,
  JsonValue,
  Message,
  MessageRole,
  ThreadStatus,
  ToolCall,
  ToolEnvelope,
  UsageTotals,
  WaitingFor,
} from './wire.js';
