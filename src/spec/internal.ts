/** The spec room's door: what the rest of the runtime may use of it. */

export { HOOK_ID_PATTERN, isHookName } from './define-hook.js';
export { modelSettingsProblem } from './define-model.js';
export { isSubpromptConfig } from './define-prompt.js';
export { isThreadEndpoint } from './define-thread-endpoint.js';
export { DEFAULT_MAX_OUTPUT_BYTES, defineTool, MAX_TOOL_TIMEOUT_MS } from './define-tool.js';
export { DefinitionError, deferDefinitionErrors, deferredDefinitionError } from './definition-error.js';
export { DEFAULT_MCP_TIMEOUT_MS, fillPlaceholders, placeholders } from './mcp-servers.js';
export type {
  ApprovalAnswer,
  Interaction,
  InteractionKind,
  InteractionRequest,
  McpAuthAnswer,
  McpAuthPayload,
  SecretAnswer,
  SecretRequestPayload,
} from './types/index.js';
export { HUMAN_INTERACTIONS, isInteractionRequest, isOnBusy, ON_BUSY_VALUES } from './types/index.js';
export {
  inheritVariableValues,
  MIN_SECRET_LENGTH,
  mergeVariableDefinitions,
  missingVariables,
  positiveIntVariable,
  resolveVariableValues,
  scopedValueNames,
  secretDefaultProblem,
  secretValueProblem,
} from './variables.js';
export { describeIssues, issueLines } from './zod-issues.js';
