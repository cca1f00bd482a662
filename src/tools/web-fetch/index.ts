/** The web-fetch room's door: what the rest of the runtime may use of it. */
export { decodeEntities } from './html-parser.js';
export { webFetch } from './web-fetch.js';
