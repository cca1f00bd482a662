/**
 * Sandboxed code (CODE-1): a model's or user's program made safe to run in an isolate of its own,
 * the isolate's main module with its limits, and `runCode` around it.
 */
export { DEFAULT_RUN_TIMEOUT_MS, MAX_MEMORY_MB, type ProgramRun, runProgram } from './run-program.js';
