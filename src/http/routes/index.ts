/**
 * The API's routes (THR-5): one module per resource, each a Hono app mounted by app.ts.
 */
export { agentRoutes } from './agents.js';
export { deferredChildRoutes } from './deferred-children.js';
export { fileRoutes } from './files.js';
export { interactionRoutes } from './interactions.js';
export { streamRoutes } from './stream.js';
export { threadRoutes } from './threads.js';
