/**
 * Brave Search API adapter: `GET {base}/res/v1/web/search?q=&count=` with the key in the
 * `X-Subscription-Token` header; results are `web.results[].{title, url, description}` (descriptions
 * carry `<strong>` highlights, stripped here).
 */
import { baseUrl, field, mapResults, requestJson } from './http.js';
import type { ProviderAdapter } from './types.js';

const DEFAULT_BASE_URL = 'https://api.search.brave.com';
/** The API's largest `count`. */
const MAX_COUNT = 20;

export const brave: ProviderAdapter = {
  name: 'brave',
  enabledBy: 'BRAVE_SEARCH_API_KEY',
  hosts: ['api.search.brave.com'],
  variables: [
    {
      name: 'BRAVE_SEARCH_API_KEY',
      type: 'secret',
      required: false,
      description: 'Brave Search API subscription token; enables Brave as a web_search provider',
    },
    {
      name: 'BRAVE_SEARCH_BASE_URL',
      type: 'text',
      required: false,
      description: `Base URL of the Brave Search API (default ${DEFAULT_BASE_URL})`,
    },
  ],
  create(variables) {
    const key = variables.BRAVE_SEARCH_API_KEY;
    if (!key) return null;
    const base = baseUrl(variables, 'BRAVE_SEARCH_BASE_URL', DEFAULT_BASE_URL);
    return {
      name: 'brave',
      async search(query, maxResults, call) {
        const url = new URL(`${base}/res/v1/web/search`);
        url.searchParams.set('q', query);
        url.searchParams.set('count', String(Math.min(maxResults, MAX_COUNT)));
        const body = await requestJson({
          provider: 'Brave Search',
          url,
          init: { headers: { accept: 'application/json', 'x-subscription-token': key } },
          call,
          authHint: 'check the BRAVE_SEARCH_API_KEY variable',
        });
        // A query without web results has no `web` section at all.
        return mapResults(field(body, 'Brave Search', 'web', 'results'), 'description', maxResults);
      },
    };
  },
};
