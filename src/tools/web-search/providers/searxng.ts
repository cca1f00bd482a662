/**
 * SearXNG adapter: `GET {SEARXNG_URL}/search?q=&format=json` on a self-hosted or public instance (the
 * instance must allow the json format); results are `results[].{title, url, content}`. SearXNG has no
 * result count parameter, so the first page is cut to `maxResults`.
 */
import { baseUrl, field, mapResults, requestJson } from './http.js';
import type { ProviderAdapter } from './types.js';

export const searxng: ProviderAdapter = {
  name: 'searxng',
  enabledBy: 'SEARXNG_URL',
  // The instance is the host's own choice; its host is not known in advance.
  hosts: [],
  variables: [
    {
      name: 'SEARXNG_URL',
      type: 'text',
      required: false,
      description:
        'Base URL of a SearXNG instance with the json format enabled; enables SearXNG as a web_search provider',
    },
  ],
  create(variables) {
    if (!variables.SEARXNG_URL?.trim()) return null;
    const base = baseUrl(variables, 'SEARXNG_URL', '');
    return {
      name: 'searxng',
      async search(query, maxResults, call) {
        const url = new URL(`${base}/search`);
        url.searchParams.set('q', query);
        url.searchParams.set('format', 'json');
        const body = await requestJson({
          provider: 'SearXNG',
          url,
          init: { headers: { accept: 'application/json' } },
          call,
          authHint: 'the instance must allow the json format (search.formats in its settings.yml)',
        });
        return mapResults(field(body, 'SearXNG', 'results'), 'content', maxResults);
      },
    };
  },
};
