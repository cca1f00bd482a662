/**
 * The caller's threads as MCP tools (THR-5, THR-6): `list_threads` answers what
 * `GET /api/threads` answers, from the same thread index with the same query schema, and
 * `read_thread` what `GET /api/threads/:id/messages` answers, through the same RPC. Another key's
 * thread is "not found", as over HTTP.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  type MessagePage as MessagePageValue,
  type RpcResult,
  ThreadIndex,
  threadStub,
} from '../../thread/bindings/index.js';
import { ListMessagesQuery, ListThreadsQuery, ThreadListSchema, unwrap } from '../contract/index.js';
import { threadId } from '../routes/index.js';
import { asToolResult, jsonResult, type McpCallContext } from './call-context.js';

/**
 * What `GET /api/threads` answers, as that route's schema declares it (the MCP client checks the
 * answer against it, so a field the listing gains must be declared once, there), plus the tenant the
 * index rows carry.
 */
const listedThread = ThreadListSchema.shape.threads.element;
const ThreadPage = ThreadListSchema.extend({
  threads: z.array(listedThread.extend({ tenant: z.string() })),
});

const MessagePage = z.object({
  messages: z.array(z.record(z.string(), z.unknown())),
  next_after: z.number().nullable().describe('Pass as after for the next page; null at the end'),
});

const ReadThreadInput = ListMessagesQuery.extend({
  thread_id: z.string().describe('The thread, as an agent tool answered it'),
});

export function registerThreadTools(server: McpServer, context: McpCallContext): void {
  const { env, principal } = context;

  server.registerTool(
    'list_threads',
    {
      title: 'List threads',
      description:
        'List your threads, newest first, with their agent and status; filter by agent, tag, parent or status, and page with cursor.',
      inputSchema: ListThreadsQuery,
      outputSchema: ThreadPage,
      annotations: { readOnlyHint: true },
    },
    (query) => asToolResult(async () => jsonResult(await new ThreadIndex(env.DB).list({ ...query, principal }))),
  );

  server.registerTool(
    'read_thread',
    {
      title: 'Read a thread',
      description:
        "Read a thread's messages in order (tool calls and results included), after a message seq, a page at a time.",
      inputSchema: ReadThreadInput,
      outputSchema: MessagePage,
      annotations: { readOnlyHint: true },
    },
    ({ thread_id, after, limit, depth }) =>
      asToolResult(async () => {
        const id = threadId(thread_id);
        const page = await threadStub(env, id).listMessages(principal, id, { after, limit, depth: depth ?? null });
        return jsonResult(unwrap(page as RpcResult<MessagePageValue>));
      }),
  );
}
