/**
 * An MCP server's tools as tools of the thread (LOCK-4): `<server>__<tool>`, the server's JSON
 * Schema sent to the model and checked before a call, the server's host as what every call touches
 * (so capabilities, `net.fetch` rules and the egress policy decide it, LOCK-5, PERM-1), seed 002's
 * timeouts (the server's call limit, then the executor's minute on top), and a wait of kind
 * `mcp_auth` when the server needs the user to authorize the thread. A server that could not be
 * listed is offered as one `<server>__connect` tool that says why and tries again.
 */
import type { ResolvedTool } from '../../engine/registry/index.js';
import type { McpServerConfig, ThreadState, ToolResult } from '../../spec/index.js';
import type { McpAuthAnswer, McpAuthPayload } from '../../spec/internal.js';
import { DEFAULT_MCP_TIMEOUT_MS, defineTool, MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';
import { mcpToolName } from './mcp-names.js';
import { McpAuthorizationRequired } from './mcp-oauth.js';
import type { McpToolInfo } from './mcp-ports.js';
import { mcpToolArguments } from './mcp-schema.js';

/** Seed 002: an MCP call gets its own limit, and the executor one more minute around it. */
const OUTER_DISPATCH_MS = 60_000;

/** What the tools ask of the thread's MCP client. */
export interface McpToolCaller {
  call(server: string, config: McpServerConfig, tool: string, args: unknown, signal: AbortSignal): Promise<ToolResult>;
  /** Lists the server again; what the model is told. */
  connect(server: string, config: McpServerConfig, signal: AbortSignal): Promise<ToolResult>;
}

type Attempt = (state: ThreadState, args: unknown) => Promise<ToolResult>;

function signalOf(state: ThreadState): AbortSignal {
  return state.execution?.abortSignal ?? new AbortController().signal;
}

/** Runs the attempt; an authorization the server asks for becomes the call's wait (KIND-3 style). */
function authorizingInteraction(server: string, attempt: Attempt) {
  return {
    begin: async (state: ThreadState, args: unknown) => {
      try {
        return await attempt(state, args);
      } catch (error) {
        if (!(error instanceof McpAuthorizationRequired)) throw error;
        // The authorization URL itself stays in the thread: only a browser its owner starts it in gets
        // it, bound to that browser (thread/mcp). The wait says where the user will be sent.
        const payload: McpAuthPayload = { server, authorization_server: new URL(error.authorizationUrl).origin };
        return { kind: 'mcp_auth' as const, payload };
      }
    },
    complete: async (state: ThreadState, args: unknown, answer: unknown): Promise<ToolResult> => {
      const given = answer as McpAuthAnswer | null;
      if (given?.authorized !== true) {
        return {
          status: 'error',
          error: `The user did not authorize the MCP server "${server}"${given?.error ? ` (${given.error})` : ''}. Tell the user instead of retrying.`,
        };
      }
      try {
        return await attempt(state, args);
      } catch (error) {
        if (!(error instanceof McpAuthorizationRequired)) throw error;
        return {
          status: 'error',
          error: `The MCP server "${server}" still asks for authorization after it was given.`,
        };
      }
    },
  };
}

function common(config: McpServerConfig, host: string) {
  return {
    requires: { net: { hosts: [host] } },
    access: () => ({ hosts: [host] }),
    timeout: Math.min((config.timeout ?? DEFAULT_MCP_TIMEOUT_MS) + OUTER_DISPATCH_MS, MAX_TOOL_TIMEOUT_MS),
    requireApproval: config.requireApproval ?? false,
  };
}

function serverTool(server: string, config: McpServerConfig, host: string, info: McpToolInfo, caller: McpToolCaller) {
  const { parameters, args } = mcpToolArguments(info.inputSchema);
  const definition = defineTool({
    description: info.description?.trim() || `Tool "${info.name}" of the MCP server "${server}"`,
    ...common(config, host),
    acpKind: 'other',
    readOnly: info.annotations?.readOnlyHint === true,
    // Re-run after a restart only what the server says is safe to repeat (THR-3).
    idempotent: info.annotations?.idempotentHint === true || info.annotations?.readOnlyHint === true,
    deferred: config.deferred ?? false,
    // INJ-1: another service's answer is data for the model, never instructions.
    untrustedOutput: config.untrustedOutput ?? true,
    execute: async () => ({ status: 'error', error: 'this tool finishes through its interaction' }),
    interaction: authorizingInteraction(server, (state, input) =>
      caller.call(server, config, info.name, input, signalOf(state)),
    ),
  });
  return { name: mcpToolName(server, info.name), definition: { ...definition, args }, parameters };
}

export function mcpServerTools(
  server: string,
  config: McpServerConfig,
  host: string,
  tools: readonly McpToolInfo[],
  caller: McpToolCaller,
): ResolvedTool[] {
  const allowed = config.tools ? new Set(config.tools) : null;
  return tools
    .filter((info) => !allowed || allowed.has(info.name))
    .map((info) => serverTool(server, config, host, info, caller));
}

/** The one tool of a server not listed yet: calling it connects (authorizing if needed) and lists. */
export function mcpConnectTool(
  server: string,
  config: McpServerConfig,
  host: string,
  reason: string,
  caller: McpToolCaller,
): ResolvedTool {
  const definition = defineTool({
    description: `Connect to the MCP server "${server}", whose tools are not available yet (${reason}). After a successful call its tools are offered from the next step on.`,
    ...common(config, host),
    acpKind: 'other',
    execute: async () => ({ status: 'error', error: 'this tool finishes through its interaction' }),
    interaction: authorizingInteraction(server, (state) => caller.connect(server, config, signalOf(state))),
  });
  return { name: mcpToolName(server, 'connect'), definition, parameters: { type: 'object', properties: {} } };
}
