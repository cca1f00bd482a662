/**
 * The Thread Durable Object (THR-1): its RPC methods, WebSocket, alarm, creation and details.
 */
export { createThreadClass, ThreadObject, USER_HEADER } from './thread-object.js';
