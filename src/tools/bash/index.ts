/**
 * The `bash` tool (LOCK-1, PERM-4): one command line in a simulated shell over the thread's files,
 * each command and each file operation checked as it runs.
 */
export { bash } from './bash.js';
