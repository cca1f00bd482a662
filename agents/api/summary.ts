/**
 * GET /api/threads/:id/summary: the thread at a glance, for a dashboard or a script. A thread
 * endpoint (docs/authoring.md, "Thread endpoints"): it reads the thread through its ThreadState.
 */
import { defineThreadEndpoint } from '@standardagents/spec';

export default defineThreadEndpoint(async (_req, state) => {
  const { messages, total } = await state.getMessages({ limit: 1, order: 'desc' });
  const last = messages[0];
  return Response.json({
    id: state.threadId,
    agent: state.agentId,
    messageCount: total,
    lastMessage: last ? { role: last.role, content: last.content, createdAt: last.created_at } : null,
    files: await state.findFiles('**', { limit: 100 }),
  });
});
