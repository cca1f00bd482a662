/**
 * The API's routes (THR-5): one module per resource, each declared with its schemas on an
 * OpenAPIHono that app.ts mounts; and what other rooms of the HTTP layer share with them: reading a
 * thread id, starting a thread.
 */
export { agentRoutes } from './agents.js';
export { deferredChildRoutes } from './deferred-children.js';
export { effectRoutes } from './effects.js';
export { type EventRoutesOptions, eventRoutes } from './events.js';
export { fileRoutes } from './files.js';
export { interactionRoutes } from './interactions.js';
export { mcpAuthorizationRoutes } from './mcp-authorizations.js';
export { mcpOAuthRoutes } from './mcp-oauth.js';
export { serviceRoutes } from './service.js';
export { spanRoutes } from './spans.js';
export { streamRoutes } from './stream.js';
export { type StartThreadInput, startThread } from './thread-start.js';
export { threadId, threadRoutes } from './threads.js';
export { withThreadAdmission, withTurnSlot } from './turn-admission.js';
export { waitRoutes } from './waits.js';
