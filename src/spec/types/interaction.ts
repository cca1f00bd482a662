/**
 * Interactions: a tool call that waits for a human or a client before it can finish (a question,
 * an approval, a client-side tool). The wait is stored with the thread, so it may last days and
 * survive evictions (KIND-7); the HTTP call that answers it resumes the loop.
 */
import type { ThreadState } from './thread-state.js';
import type { ToolResult } from './types.js';

/**
 * `subagent`: the call waits for a child thread to finish; the child answers it, not a human.
 * `secret`: the call waits for a human to enter a credential (VAR-5); the value goes to the thread's
 * encrypted variables, and the stored answer only says it was stored.
 */
export type InteractionKind = 'question' | 'approval' | 'client_tool' | 'hitl' | 'subagent' | 'secret' | 'mcp_auth';

/** Kinds a human or a client answers: these cannot wait on a headless thread. */
export const HUMAN_INTERACTIONS: readonly InteractionKind[] = [
  'question',
  'approval',
  'client_tool',
  'hitl',
  'secret',
  'mcp_auth',
];

/** What a waiting call shows its client. */
export interface InteractionRequest {
  kind: InteractionKind;
  payload: unknown;
}

/** A stored wait: the request, and once given, the answer. */
export interface Interaction extends InteractionRequest {
  toolCallId: string;
  toolName: string;
  createdAt: number;
  answered: boolean;
  answer: unknown;
}

/** An approval answer (KIND-5, PERM-2): allow once, allow always, or reject with a reason. */
export interface ApprovalAnswer {
  approved: boolean;
  /** With `approved`: remember the permission for the rest of the thread. */
  always?: boolean;
  reason?: string;
}

/** What a `secret` wait shows its client (VAR-5): which variable and why; never a value. */
export interface SecretRequestPayload {
  name: string;
  reason: string;
}

/**
 * What an `mcp_auth` wait shows its client: the MCP server that requires OAuth and the origin of the
 * authorization server the user will be sent to. The thread's owner starts the authorization with
 * `POST /api/threads/:id/mcp-authorizations` (a one-time link to open in the browser that will
 * authorize); the authorization server's redirect back to that browser completes the wait.
 */
export interface McpAuthPayload {
  server: string;
  authorization_server: string;
}

/** The stored answer of an `mcp_auth` wait: the tokens went to the thread's sealed storage. */
export interface McpAuthAnswer {
  authorized: boolean;
  error?: string;
}

/** The stored answer of a `secret` wait: the value itself went to the encrypted variables. */
export interface SecretAnswer {
  stored: boolean;
}

/**
 * How a tool that needs an answer runs: `begin` either finishes at once with a result or asks for an
 * interaction; once answered, `complete` turns the answer into the result.
 */
export interface ToolInteraction<Args = unknown> {
  begin(state: ThreadState, args: Args): Promise<ToolResult | InteractionRequest>;
  complete(state: ThreadState, args: Args, answer: unknown): Promise<ToolResult>;
}

export function isInteractionRequest(value: ToolResult | InteractionRequest): value is InteractionRequest {
  return 'kind' in value && 'payload' in value;
}
