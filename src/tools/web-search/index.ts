/**
 * The `web_search` tool (LOCK-1, LOCK-3): a search through a provider picked per thread, with a
 * per-thread call cap and a per-call time limit.
 */
export { webSearch } from './web-search.js';
