/**
 * The specification's vocabulary, the room every definition stands on: messages, tool results and
 * attachments (types.ts), the `ThreadState` a tool, hook, effect or endpoint receives, interactions
 * (approvals, questions, client tools, secrets), permission rules and capability requirements.
 */

export type {
  ApprovalAnswer,
  Interaction,
  InteractionKind,
  InteractionRequest,
  McpAuthAnswer,
  McpAuthPayload,
  SecretAnswer,
  SecretRequestPayload,
  ToolInteraction,
} from './interaction.js';
export { HUMAN_INTERACTIONS, isInteractionRequest } from './interaction.js';
export type { OnBusy } from './on-busy.js';
export { isOnBusy, ON_BUSY_VALUES } from './on-busy.js';
export type {
  ActAccess,
  PermissionAction,
  PermissionRule,
  ToolAccess,
  Watchdog,
  WatchdogCall,
  WatchdogDecision,
} from './permissions.js';
export type { AcpToolKind, ArgPattern, RequirementSet, ShellRunRequirement } from './requirements.js';
export { ACP_TOOL_KINDS } from './requirements.js';
export type { RunCodeLog, RunCodeOptions, RunCodeResult } from './run-code.js';
export type {
  DirectoryEntry,
  FileChunk,
  FileRecord,
  FileStat,
  FileStats,
  GrepMatch,
  ReaddirEntry,
  ReaddirResult,
  ReadFileStreamOptions,
  WriteFileOptions,
} from './thread-files.js';
export type {
  GetLogsOptions,
  GetMessagesOptions,
  Log,
  MessagesResult,
  MessageUpdates,
  NewMessageInput,
} from './thread-messages.js';
export type { ScheduledEffect, SetEnvOptions, SpawnChildOptions, SubagentRegistryEntry } from './thread-records.js';
export type {
  ContextScope,
  ExecutionContext,
  ExecutionState,
  SetContextOptions,
  ThreadState,
  ToolContext,
} from './thread-state.js';
export { CallPaused, ContextValidationError, EgressRefused } from './thread-state.js';
export type {
  AttachmentRef,
  EnvelopeMetadata,
  ImageContent,
  Message,
  MessageRole,
  TextContent,
  ThreadStatus,
  ToolAttachment,
  ToolCall,
  ToolContent,
  ToolEnvelope,
  ToolResult,
  VariableDefinition,
} from './types.js';
