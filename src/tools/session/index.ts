/** The session room's door: what the rest of the runtime may use of it. */
export { question } from './question.js';
export { skillTool } from './skill.js';
export { STORE_SECRET_TOOL, storeSecret } from './store-secret.js';
export { todo } from './todo.js';
export { toolSearchTool } from './tool-search.js';
