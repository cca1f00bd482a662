/**
 * Answers to a waiting tool call — the answers to a question, an approval or rejection, a client or
 * human-in-the-loop tool's output, a credential for `store_secret` — each resuming the thread and
 * answering it as it is then; and for an MCP server's authorization (`mcp_auth`), the one-time link
 * the user opens in their browser. An answer for a call that does not wait for it is an ApiError 409.
 */
import { expectOk, type TypedApi } from './http.js';
import type {
  ApprovalAnswer,
  McpAuthorizationRequest,
  McpStartLink,
  QuestionAnswer,
  SecretAnswer,
  ThreadDetails,
  ToolResultAnswer,
} from './resources.js';

export interface AnswerCalls {
  /** `POST .../answers`: one list of answers per question of a waiting `question` call. */
  question(id: string, body: QuestionAnswer): Promise<ThreadDetails>;
  /** `POST .../approvals`: `always` keeps allowing this kind of call for the rest of the thread. */
  approval(id: string, body: ApprovalAnswer): Promise<ThreadDetails>;
  /** `POST .../tool-results`: a client tool's output (400 if it does not match the tool's output schema). */
  toolResult(id: string, body: ToolResultAnswer): Promise<ThreadDetails>;
  /** `POST .../secrets`: sealed into the thread's variables, never shown to a model (at least 8 characters). */
  secret(id: string, body: SecretAnswer): Promise<ThreadDetails>;
  /**
   * `POST .../mcp-authorizations`: a one-time link (`start_url`) that starts the authorization of the
   * server an `mcp_auth` wait names. Open it in the browser that will authorize, once, before
   * `expires_at`: only that browser can complete it.
   */
  mcpAuthorization(id: string, body: McpAuthorizationRequest): Promise<McpStartLink>;
}

export function answerCalls(api: TypedApi): AnswerCalls {
  const path = (id: string) => ({ path: { id } });
  return {
    question: (id, body) => expectOk(api.POST('/api/threads/{id}/answers', { params: path(id), body })),
    approval: (id, body) => expectOk(api.POST('/api/threads/{id}/approvals', { params: path(id), body })),
    toolResult: (id, body) => expectOk(api.POST('/api/threads/{id}/tool-results', { params: path(id), body })),
    secret: (id, body) => expectOk(api.POST('/api/threads/{id}/secrets', { params: path(id), body })),
    mcpAuthorization: (id, body) =>
      expectOk(api.POST('/api/threads/{id}/mcp-authorizations', { params: path(id), body })),
  };
}
