/**
 * A thread's messages as they are posted (THR-5, MSG-1, MSG-2): `POST /api/threads/:id/messages`,
 * JSON or multipart, with files or without.
 */
export { messageRoutes } from './post-message.js';
