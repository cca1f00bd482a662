/** The bash room's door: what the rest of the runtime may use of it. */
export { bash } from './bash.js';
