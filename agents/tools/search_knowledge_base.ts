// Seed 001, example 11.1: a tool with arguments, searching a knowledge base bundled with the app.
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';
import { searchKnowledgeBase } from '../lib/knowledge-base';

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
