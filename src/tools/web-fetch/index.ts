/**
 * The `web_fetch` tool (LOCK-1, LOCK-3, LOCK-6): a page through the egress policy, as markdown or text.
 */
export { webFetch } from './web-fetch.js';
