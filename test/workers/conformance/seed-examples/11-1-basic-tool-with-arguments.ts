import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Search the knowledge base for relevant information',
  args: z.object({
    query: z.string().describe('Search query'),
    limit: z.number().optional().default(10).describe('Max results'),
  }),
  execute: async (state, args) => {
    const results = await searchKnowledgeBase(args.query, args.limit);
    return {
      status: 'success',
      result: JSON.stringify(results),
    };
  },
});

// Stands in for the outside service (a knowledge base): answers with the query and the limit it was given.
async function searchKnowledgeBase(query: string, limit: number) {
  const hits = Array.from({ length: Math.min(limit, 3) }, (_, index) => ({
    id: `kb-${index + 1}`,
    title: `${query} (${index + 1})`,
  }));
  return { query, limit, hits };
}
