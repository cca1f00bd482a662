/** The web-search room's door: what the rest of the runtime may use of it. */
export { webSearch } from './web-search.js';
