/**
 * Sandboxed code (CODE-1), the part that is pure: a model- or user-written program made ready for an
 * isolate of its own (types stripped, loops and functions guarded, imports limited to its own
 * modules). Loading the isolate and the bridge to tools and files belong to the host side.
 */
export { MAX_MODULES, MAX_SOURCE_BYTES, PROGRAM_MODULE, SANDBOX_MAIN_MODULE } from './module-names.js';
export type { PreparedProgram, ProgramInput, ProgramSyntaxError } from './program-source.js';
export { prepareProgram, randomGuardName } from './program-source.js';
