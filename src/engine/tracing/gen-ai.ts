/**
 * Span names and attribute names (TRACE-3): the OpenTelemetry semantic conventions for generative
 * AI where they have a name (`invoke_agent`, `chat`, `execute_tool`, `gen_ai.*`), MCP's for requests
 * to MCP servers, and the runtime's own under `standard_agents.*` for what they do not cover.
 */

export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  agentName: 'gen_ai.agent.name',
  conversation: 'gen_ai.conversation.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  mcpMethod: 'mcp.method.name',
  errorType: 'error.type',
  tenant: 'tenant.id',
  user: 'enduser.id',
  thread: 'standard_agents.thread.id',
  turn: 'standard_agents.turn.id',
  message: 'standard_agents.message.id',
  childThread: 'standard_agents.child_thread.id',
  cost: 'standard_agents.cost_usd',
  mcpServer: 'standard_agents.mcp.server',
  hookPoint: 'standard_agents.hook.point',
  attempt: 'standard_agents.retry.attempt',
} as const;

/** The convention's provider names, where it has one; otherwise the runtime's own provider id. */
const PROVIDER_NAMES: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  'workers-ai': 'cloudflare.workers_ai',
};

export function providerName(provider: string | undefined): string {
  return PROVIDER_NAMES[provider ?? ''] ?? provider ?? 'unknown';
}

export const spanNames = {
  turn: (agent: string) => `invoke_agent ${agent}`,
  chat: (model: string) => `chat ${model}`,
  tool: (tool: string) => `execute_tool ${tool}`,
  mcp: (method: string, tool?: string) => (tool ? `${method} ${tool}` : method),
  hook: (name: string) => `hook ${name}`,
  effect: (name: string) => `effect ${name}`,
  compaction: 'compaction',
  retry: 'retry',
} as const;
