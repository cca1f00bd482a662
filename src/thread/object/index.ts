/** The object room's door: what the rest of the runtime may use of it. */
export { createThreadClass, ThreadObject, USER_HEADER } from './thread-object.js';
