/** The registry room's door: what the rest of the runtime may use of it. */
export type { SearchableTool } from './deferred-tools.js';
export { LOADED_TOOLS_KEY, rankDeferredTools } from './deferred-tools.js';
export { Registry } from './registry.js';
export { attachedPaths, initialMessage } from './subprompt-tool.js';
export type {
  AgentToolFactory,
  AppDefinitions,
  ImmediateStart,
  LifecycleToolFactory,
  ResolvedTool,
  ResumableSubagent,
} from './types.js';
