/**
 * The session-internal tools (LOCK-1, LOCK-4, VAR-5): todo, question, skill, tool_search and
 * store_secret, which touch only the thread's own state.
 */
export { question } from './question.js';
export { skillTool } from './skill.js';
export { STORE_SECRET_TOOL, storeSecret } from './store-secret.js';
export { todo } from './todo.js';
export { toolSearchTool } from './tool-search.js';
