/**
 * Tavily adapter: `POST {base}/search` with `Authorization: Bearer <key>` and a JSON body
 * `{ query, max_results, ... }`; results are `results[].{title, url, content}`.
 */
import { baseUrl, field, mapResults, requestJson } from './http.js';
import type { ProviderAdapter } from './types.js';

const DEFAULT_BASE_URL = 'https://api.tavily.com';
/** The API's largest `max_results`. */
const MAX_COUNT = 20;

export const tavily: ProviderAdapter = {
  name: 'tavily',
  enabledBy: 'TAVILY_API_KEY',
  hosts: ['api.tavily.com'],
  variables: [
    {
      name: 'TAVILY_API_KEY',
      type: 'secret',
      required: false,
      description: 'Tavily API key; enables Tavily as a web_search provider',
    },
    {
      name: 'TAVILY_BASE_URL',
      type: 'text',
      required: false,
      description: `Base URL of the Tavily API (default ${DEFAULT_BASE_URL})`,
    },
  ],
  create(variables) {
    const key = variables.TAVILY_API_KEY;
    if (!key) return null;
    const base = baseUrl(variables, 'TAVILY_BASE_URL', DEFAULT_BASE_URL);
    return {
      name: 'tavily',
      async search(query, maxResults, call) {
        const body = await requestJson({
          provider: 'Tavily',
          url: new URL(`${base}/search`),
          init: {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({
              query,
              max_results: Math.min(maxResults, MAX_COUNT),
              search_depth: 'basic',
              include_answer: false,
              include_images: false,
              include_raw_content: false,
            }),
          },
          call,
          authHint: 'check the TAVILY_API_KEY variable',
        });
        return mapResults(field(body, 'Tavily', 'results'), 'content', maxResults);
      },
    };
  },
};
