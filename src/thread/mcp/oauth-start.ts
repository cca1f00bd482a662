/**
 * The start of an MCP server's OAuth authorization in a browser (LOCK-4), as the thread answers it
 * over RPC: its owner's keyed request gets a one-time link, and the browser opening that link gets
 * the authorization server's URL with a state bound to it (browser-binding.ts).
 */
import type { McpAuthPayload } from '../../spec/internal.js';
import { fail, type McpBrowserStart, type McpStartLink, ok, type RpcResult } from '../bindings/index.js';
import type { SqliteThreadStore } from '../storage/index.js';
import type { ThreadMcp } from './thread-mcp.js';

/** A start link for `server`, if a call of this thread waits for its authorization. */
export async function mcpStartLink(
  mcp: ThreadMcp,
  store: SqliteThreadStore,
  server: string,
): Promise<RpcResult<McpStartLink>> {
  const waiting = store
    .openInteractions()
    .some((wait) => wait.kind === 'mcp_auth' && (wait.payload as McpAuthPayload).server === server);
  if (!waiting) {
    return fail({
      status: 409,
      code: 'not_waiting',
      message: `no call of this thread waits for the authorization of the MCP server "${server}"`,
    });
  }
  const link = await mcp.startLink(server);
  return 'ticket' in link ? ok({ server, ticket: link.ticket, expires_at: link.expiresAt }) : fail(link);
}

/** A browser opened a start link: where to send it, with the state bound to its nonce's hash. */
export async function beginMcpAuthorization(
  mcp: ThreadMcp,
  ticket: string,
  nonceHash: string,
): Promise<RpcResult<McpBrowserStart>> {
  const begun = await mcp.beginInBrowser(ticket, nonceHash);
  return 'state' in begun ? ok({ state: begun.state, authorization_url: begun.authorizationUrl }) : fail(begun);
}
