/** The web-fetch room's door: what the rest of the runtime may use of it. */
export { webFetch } from './web-fetch.js';
