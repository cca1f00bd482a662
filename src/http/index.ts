/** The HTTP layer's door: the Hono app serving the API (THR-5). */
export { type AppOptions, createApp } from './app.js';
