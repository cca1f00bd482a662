/**
 * The authoring API: what application code imports, as `@standardagents/spec` or from this package.
 */

export type { AgentSchedule } from './agent-schedules.js';
export type {
  AgentBudget,
  AgentDefinition,
  DefineAgentOptions,
  SideConfig,
  SideConfigInput,
} from './define-agent.js';
export { defineAgent } from './define-agent.js';
export type { EffectArgs, EffectDefinition, EffectHandler, EffectOptions } from './define-effect.js';
export { defineEffect } from './define-effect.js';
export type {
  AnyHookDefinition,
  HookDefinition,
  HookDefinitionOptions,
  HookName,
  HookSignatures,
  LLMMessage,
} from './define-hook.js';
export { defineHook, HOOK_NAMES } from './define-hook.js';
export type {
  ClientToolDefinition,
  DefineClientToolOptions,
  DefineHitlToolOptions,
  DefineInteractiveToolOptions,
} from './define-interactive-tool.js';
export { defineClientTool, defineHitlTool, defineInteractiveTool } from './define-interactive-tool.js';
export type {
  ModelContentPart,
  ModelDefinition,
  ModelMessage,
  ModelPrices,
  ModelProvider,
  ModelSettings,
  ModelSide,
  ResponseFormat,
  Script,
  ScriptedReply,
  ScriptedRequest,
  ScriptedToolCall,
} from './define-model.js';
export { defineModel, MODEL_PROVIDERS } from './define-model.js';
export type {
  DefinePromptOptions,
  MaxToolRounds,
  PromptDefinition,
  ToolConfig,
  TurnContext,
  TurnToolCall,
} from './define-prompt.js';
export { definePrompt } from './define-prompt.js';
export type { SkillDefinition } from './define-skill.js';
export { defineSkill } from './define-skill.js';
export type {
  ThreadEndpointDefinition,
  ThreadEndpointHandler,
  ThreadEndpointOptions,
} from './define-thread-endpoint.js';
export { defineThreadEndpoint } from './define-thread-endpoint.js';
export type {
  AnyToolDefinition,
  ApprovalContext,
  ApprovalPredicate,
  ContextResolver,
  DefineToolOptions,
  InferToolArgs,
  InferToolContext,
  InferToolEvent,
  InferToolResult,
  Tool,
  ToolArgs,
  ToolContextSchema,
  ToolDefinition,
  ToolOutputSchema,
  ToolState,
  ToolTenvs,
} from './define-tool.js';
export { defineTool } from './define-tool.js';
export { DefinitionError } from './definition-error.js';
export type { McpServerConfig, McpTransport } from './mcp-servers.js';
export type { JsonSchema } from './schema.js';
export { argumentsJsonSchema, MAX_SCHEMA_DEPTH, SchemaRuleError } from './schema.js';
export type { SubagentToolConfig, SubpromptConfig } from './tool-configs.js';
export type { LintFinding, LintToolOptions, ToolLintRule } from './tool-lint.js';
export { lintTool, lintTools, TOOL_LINT_RULES } from './tool-lint.js';
export type {
  AcpToolKind,
  ActAccess,
  ApprovalAnswer,
  ArgPattern,
  AttachmentRef,
  ContextScope,
  DirectoryEntry,
  EnvelopeMetadata,
  ExecutionContext,
  ExecutionState,
  FileChunk,
  FileRecord,
  FileStat,
  FileStats,
  GetLogsOptions,
  GetMessagesOptions,
  GrepMatch,
  ImageContent,
  Interaction,
  InteractionKind,
  InteractionRequest,
  Log,
  Message,
  MessageRole,
  MessagesResult,
  MessageUpdates,
  NewMessageInput,
  OnBusy,
  PermissionAction,
  PermissionRule,
  ReaddirEntry,
  ReaddirResult,
  ReadFileStreamOptions,
  RequirementSet,
  RunCodeLog,
  RunCodeOptions,
  RunCodeResult,
  ScheduledEffect,
  SetContextOptions,
  SetEnvOptions,
  ShellRunRequirement,
  SpawnChildOptions,
  SubagentRegistryEntry,
  TextContent,
  ThreadState,
  ThreadStatus,
  ToolAccess,
  ToolAttachment,
  ToolCall,
  ToolContent,
  ToolContext,
  ToolEnvelope,
  ToolInteraction,
  ToolResult,
  VariableDefinition,
  Watchdog,
  WatchdogCall,
  WatchdogDecision,
  WriteFileOptions,
} from './types/index.js';
export { ACP_TOOL_KINDS, CallPaused, ContextValidationError, EgressRefused } from './types/index.js';
