/** GET /api/threads/:id/summary: the thread at a glance. */
import { defineThreadEndpoint } from '@standardagents/spec';

export default defineThreadEndpoint(async (_req, state, params) => {
  const { messages, total } = await state.getMessages({ limit: 1, order: 'desc' });
  const effects = await state.getScheduledEffects();
  return Response.json({
    threadId: state.threadId,
    agent: state.agentId,
    messageCount: total,
    last: messages[0]?.content ?? null,
    scheduledEffects: effects.map((effect) => effect.name),
    params,
  });
});
