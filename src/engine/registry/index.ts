/**
 * The registry (DEF-4, SUB-1 to SUB-4): an application's definitions checked once at startup, and
 * the tools each prompt offers, prompts and agents offered as tools included.
 */
export type { SearchableTool } from './deferred-tools.js';
export { LOADED_TOOLS_KEY, rankDeferredTools } from './deferred-tools.js';
export type { HooksByPoint } from './hook-registry.js';
export { DEFAULT_HOOK_TIMEOUT_MS } from './hook-registry.js';
export { TOOL_SEARCH, withLoadedToolLimit } from './loaded-tool-limit.js';
export { mcpServersOf } from './mcp-declarations.js';
export { DEFAULT_MESSAGE_FILE_LIMITS, type MessageFileLimits } from './message-file-limits.js';
export { Registry } from './registry.js';
export type { RuntimeLimits, ThreadLimits } from './runtime-limits.js';
export { DEFAULT_LIMITS } from './runtime-limits.js';
export { attachedPaths, initialMessage } from './subprompt-tool.js';
export type {
  AgentToolFactory,
  AppDefinitions,
  ImmediateStart,
  LifecycleToolFactory,
  ResolvedTool,
  ResumableSubagent,
} from './types.js';
