/**
 * The end of an MCP server's OAuth authorization (LOCK-4): the authorization server sent the user
 * back with a code (or an error) and the `state` this thread made. A state no authorization under
 * way carries is refused (a forged or replayed callback changes nothing); otherwise the code is
 * exchanged for tokens (sealed) and every call waiting with `mcp_auth` for that server is answered.
 */
import type { McpAuthAnswer } from '../../spec/internal.js';
import { fail, type McpAuthorizationResult, type McpCallbackOutcome, ok, type RpcResult } from '../bindings/index.js';
import { type AnswerDesk, answerMcpAuthorization } from '../inbox/index.js';
import type { ThreadMcp } from './thread-mcp.js';

export async function completeMcpAuthorization(
  mcp: ThreadMcp,
  desk: AnswerDesk,
  state: string,
  outcome: McpCallbackOutcome,
): Promise<RpcResult<McpAuthorizationResult>> {
  const server = await mcp.serverAwaiting(state);
  if (!server) {
    return fail({ status: 400, code: 'unknown_state', message: 'no authorization under way matches this state' });
  }
  let answer: McpAuthAnswer;
  if ('error' in outcome) {
    answer = { authorized: false, error: outcome.error };
  } else {
    try {
      await mcp.authorize(state, outcome.code);
      answer = { authorized: true };
    } catch (error) {
      answer = { authorized: false, error: desk.variables.scrubber.text((error as Error).message) };
    }
  }
  await answerMcpAuthorization(desk, server, answer);
  return ok({ server, ...answer });
}
