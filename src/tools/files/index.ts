/** The files room's door: what the rest of the runtime may use of it. */
export { edit } from './edit.js';
export { glob } from './glob.js';
export { grep } from './grep.js';
export { read } from './read.js';
export { TextWriter } from './text-writer.js';
export { write } from './write.js';
