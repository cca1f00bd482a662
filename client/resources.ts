/**
 * What each route takes and answers, named: the schemas of the served OpenAPI document
 * (client/openapi.ts, generated from `GET /openapi.json`), so a change of the server's document
 * changes these types, and code using them stops compiling where it no longer fits.
 */
import type { components, paths } from './openapi.js';

type Schemas = components['schemas'];

export type ThreadDetails = Schemas['ThreadDetails'];
export type ForkThreadBody = Schemas['ForkThreadBody'];
export type ForkAnswer = Schemas['ForkAnswer'];
export type RewindThreadBody = Schemas['RewindThreadBody'];
export type RewindAnswer = Schemas['RewindAnswer'];
export type EditMessageBody = Schemas['EditMessageBody'];
export type EditAnswer = Schemas['EditAnswer'];
export type ThreadPage = Schemas['ThreadList'];
export type ThreadSummary = ThreadPage['threads'][number];
export type MessagePage = Schemas['MessagePage'];
export type PostMessageAnswer = Schemas['PostMessageAnswer'];
export type AgentList = Schemas['AgentList'];
export type AgentSummary = Schemas['Agent'];
export type PromptSummary = AgentSummary['sideA']['prompt'];
export type ToolSummary = PromptSummary['tools'][number];
export type ModelSummary = Schemas['ModelStatus'];
export type FolderListing = Schemas['FolderListing'];
export type FolderEntry = FolderListing['entries'][number];
export type DeferredChildView = Schemas['DeferredChildView'];
export type BootedChild = Schemas['BootedChild'];
export type McpStartLink = Schemas['McpStartLink'];
export type ApiKey = Schemas['ApiKey'];
export type IssuedApiKey = Schemas['IssuedApiKey'];
export type ApiKeyPage = Schemas['ApiKeyList'];
export type Role = ApiKey['role'];
export type AuditPage = Schemas['AuditPage'];
export type AuditEntry = AuditPage['entries'][number];
export type AuditAction = AuditEntry['action'];
export type LimitsView = Schemas['Limits'];
export type TenantLimits = Schemas['TenantLimits'];
export type LimitSet = Schemas['LimitSet'];
export type ThreadEffectList = Schemas['EffectList'];
export type ThreadEffect = Schemas['ScheduledEffect'];
export type Schedule = Schemas['Schedule'];
export type ScheduleList = Schemas['ScheduleList'];
export type TenantSchedule = Schemas['TenantSchedule'];
export type TenantScheduleList = Schemas['TenantScheduleList'];
export type CreateScheduleBody = Schemas['CreateScheduleBody'];
export type CreateTenantScheduleBody = Schemas['CreateTenantScheduleBody'];
export type WaitPage = Schemas['WaitList'];
export type OpenWait = Schemas['OpenWait'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryPage'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type CreateWebhookBody = Schemas['CreateWebhookBody'];
export type UpdateWebhookBody = Schemas['UpdateWebhookBody'];
export type UsageReport = Schemas['UsageReport'];
export type UsageRow = Schemas['UsageRow'];
export type UsageDimension = UsageReport['group_by'][number];
export type SpanList = Schemas['SpanList'];
export type Span = Schemas['Span'];

export type CreateThreadBody = Schemas['CreateThreadBody'];
export type PostMessageBody = Schemas['PostMessageBody'];
export type QuestionAnswer = Schemas['AnswersBody'];
export type ApprovalAnswer = Schemas['ApprovalsBody'];
export type ToolResultAnswer = Schemas['ToolResultsBody'];
export type SecretAnswer = Schemas['SecretsBody'];
export type McpAuthorizationRequest = Schemas['McpAuthorizationBody'];
export type ProvidedVariables = Schemas['DeferredVariablesBody']['variables'];
export type CreateKeyBody = Schemas['CreateApiKeyBody'];
export type UpdateKeyBody = Schemas['UpdateApiKeyBody'];

type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export type ListThreadsQuery = Query<'/api/threads', 'get'>;
export type ListMessagesQuery = Query<'/api/threads/{id}/messages', 'get'>;
export type ListKeysQuery = Query<'/api/keys', 'get'>;
export type ListAuditQuery = Query<'/api/audit', 'get'>;
export type ListWaitsQuery = Query<'/api/waits', 'get'>;
export type ListWebhookDeliveriesQuery = Query<'/api/webhooks/{id}/deliveries', 'get'>;
/** `{ tenant }`: another tenant's limits, for the bootstrap admin key only. */
export type LimitsQuery = Query<'/api/limits', 'get'>;
