/**
 * The end of an MCP server's OAuth authorization (LOCK-4): the authorization server sent the browser
 * back with a code (or an error) and the `state` this thread bound to that browser. Only the browser
 * that started it completes it, once (browser-binding.ts); anything else is refused and changes
 * nothing. The code is then exchanged for tokens (sealed) and every call waiting with `mcp_auth` for
 * that server is answered.
 */
import type { McpAuthAnswer } from '../../spec/internal.js';
import { fail, type McpAuthorizationResult, type McpCallbackOutcome, ok, type RpcResult } from '../bindings/index.js';
import { type AnswerDesk, answerMcpAuthorization } from '../inbox/index.js';
import type { ThreadMcp } from './thread-mcp.js';

export async function completeMcpAuthorization(
  mcp: ThreadMcp,
  desk: AnswerDesk,
  state: string,
  nonceHash: string | null,
  outcome: McpCallbackOutcome,
): Promise<RpcResult<McpAuthorizationResult>> {
  const server = await mcp.claimCallback(state, nonceHash);
  if (typeof server !== 'string') return fail(server);
  let answer: McpAuthAnswer;
  if ('error' in outcome) {
    answer = { authorized: false, error: outcome.error };
  } else {
    try {
      await mcp.authorize(server, outcome.code);
      answer = { authorized: true };
    } catch (error) {
      answer = { authorized: false, error: desk.variables.scrubber.text((error as Error).message) };
    }
  }
  await answerMcpAuthorization(desk, server, answer);
  return ok({ server, ...answer });
}
