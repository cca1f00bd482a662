/** The routes room's door: what the rest of the runtime may use of it. */
export { agentRoutes } from './agents.js';
export { deferredChildRoutes } from './deferred-children.js';
export { fileRoutes } from './files.js';
export { interactionRoutes } from './interactions.js';
export { streamRoutes } from './stream.js';
export { threadRoutes } from './threads.js';
