/**
 * What the thread layer binds to (THR-1, THR-6): the Worker's env, the Thread object's RPC contract
 * and stub, the D1 thread index, the D1 usage index and the R2 file store.
 */
export { schemaOnFirstUse } from './d1-schema.js';
export type { RuntimeEnv } from './env.js';
export type { ChildOutcome, DeferredChildView, FamilyCall, FamilySnapshot, JsonValue } from './family-api.js';
export type { ForkedFrom, ForkRequest, ForkSeed, NotCopied } from './history-api.js';
export { deleteUnder, R2FileStore, threadPrefix } from './r2-file-store.js';
export type { ScheduleInput, ScheduleView, TenantScheduleInput, TenantScheduleView } from './schedule-api.js';
export type {
  Admission,
  AdmissionWithLimits,
  KeyState,
  LimitSet,
  LimitsView,
  PublishedEvent,
  Spend,
  SpendDecision,
  TenantLimits,
  TenantRpc,
} from './tenant-api.js';
export type {
  ApiError,
  ChildDelivery,
  CreateThreadInput,
  EffectView,
  ForkAnswer,
  InitialMessage,
  McpAuthorizationResult,
  McpBrowserStart,
  McpCallbackOutcome,
  McpStartLink,
  MessagePage,
  MessagePart,
  MessageWithFilesInput,
  PostMessageAnswer,
  PostMessageInput,
  RewindAnswer,
  RpcResult,
  SpawnChildInput,
  ThreadDetails,
  ThreadRpc,
  UploadedFile,
  WaitingFor,
} from './thread-api.js';
export { fail, forbidden, notFound, ok } from './thread-api.js';
export type { IndexedThread, McpListedTool, McpListing } from './thread-index.js';
export { ThreadIndex } from './thread-index.js';
export { threadStub } from './thread-stub.js';
export type {
  UsageDimension,
  UsageEvent,
  UsageNumbers,
  UsageQuery,
  UsageRow,
  UsageScope,
} from './usage-index.js';
export { USAGE_DIMENSIONS, UsageIndex } from './usage-index.js';
export type { IndexedWait, ListedWait, WaitListQuery } from './wait-index.js';
export { decodeWaitCursor } from './wait-index.js';
export type {
  WebhookAttemptView,
  WebhookCreated,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookInput,
  WebhookPatch,
  WebhookView,
  WebhookViewer,
} from './webhook-api.js';
