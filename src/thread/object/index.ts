/**
 * The Thread Durable Object (THR-1): its RPC methods, WebSocket, alarm, creation and details.
 */
export { createThreadClass, type ThreadClass } from './thread-class.js';
export { ThreadObject, USER_HEADER } from './thread-object.js';
