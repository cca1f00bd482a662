/**
 * The file tools (LOCK-1, LOCK-2, LOCK-6): read, write, edit, glob and grep over the thread's files.
 */
export { edit } from './edit.js';
export { glob } from './glob.js';
export { grep } from './grep.js';
export { read } from './read.js';
export { TextWriter } from './text-writer.js';
export { write } from './write.js';
