/**
 * The Thread Durable Object (THR-1): its RPC methods, WebSocket, alarm, creation and details.
 */

export { PRINCIPAL_HEADER, principalHeaderValue } from './principal-header.js';
export { createThreadClass, type ThreadClass } from './thread-class.js';
export { ThreadObject } from './thread-object.js';
