import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Search through uploaded files using vector embeddings',
  args: z.object({
    query: z.string().describe('Search query'),
  }),
  execute: async (state, args) => {
    // Access tenvs from state
    const vectorStoreId = state.tenvs.vectorStoreId;
    const results = await searchVectorStore(vectorStoreId, args.query);
    return {
      status: 'success',
      result: JSON.stringify(results),
    };
  },
  // tenvs property: tenv requirements
  tenvs: z.object({
    vectorStoreId: z.string().describe('OpenAI Vector Store ID'),
  }),
});

// Stands in for the outside service (a vector store): answers with the store id and query it was given.
async function searchVectorStore(vectorStoreId: string | undefined, query: string) {
  if (vectorStoreId === undefined) throw new Error('searchVectorStore: no vector store id');
  return { vectorStoreId, query, matches: [{ file: 'handbook.pdf', score: 0.92 }] };
}
