/**
 * A small knowledge base bundled with the example app, searched by word overlap: enough for the
 * search tool to return real, query-dependent results offline.
 */

export interface Article {
  title: string;
  body: string;
}

const ARTICLES: Article[] = [
  {
    title: 'Threads',
    body: 'Every thread is a Durable Object holding its message log, variables and files. Threads are created with POST /api/threads.',
  },
  {
    title: 'Streaming',
    body: 'Open a WebSocket on /api/threads/:id/stream to receive numbered frames; reconnect with ?after=<seq> to replay what you missed.',
  },
  {
    title: 'Tools',
    body: 'Tools are defined with defineTool: a description, a Zod argument schema and an execute function returning a ToolResult.',
  },
  {
    title: 'Files',
    body: 'Each thread has a filesystem in R2. Tool attachments are stored under /attachments/ and can be downloaded over HTTP.',
  },
  {
    title: 'Models',
    body: 'Set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL to use any OpenAI-compatible model; without them an offline demo model answers.',
  },
];

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

export async function searchKnowledgeBase(query: string, limit: number): Promise<Article[]> {
  const wanted = words(query);
  return ARTICLES.map((article) => ({
    article,
    score: [...words(`${article.title} ${article.body}`)].filter((word) => wanted.has(word)).length,
  }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((entry) => entry.article);
}
