/**
 * Sandboxed code (CODE-1), the part that is pure: a model- or user-written program made ready for an
 * isolate of its own (types stripped, loops and functions guarded, imports limited to its own
 * modules), the isolate's main module with its limits (ticks, wall clock, time without a pause, a
 * work meter and a memory ledger, console and result caps, stop), and the TypeScript declarations a
 * model is shown. Loading the isolate and the bridge to tools and files belong to the host side.
 */

export { loadProgramCompilers } from './compilers-loader.js';
export { MAX_MODULES, MAX_SOURCE_BYTES, PROGRAM_MODULE, SANDBOX_MAIN_MODULE } from './module-names.js';
export type { PreparedProgram, ProgramInput, ProgramSyntaxError } from './program-source.js';
export { prepareProgram, randomGuardName } from './program-source.js';
export { DEFAULT_RUN_TIMEOUT_MS, MAX_MEMORY_MB, type ProgramRun, runProgram } from './run-program.js';
export type {
  LogEntry,
  LogLevel,
  SandboxConfig,
  SandboxEntrypoint,
  SandboxFailureKind,
  SandboxHost,
  SandboxOutcome,
} from './sandbox-config.js';
export {
  DEFAULT_MAX_BUSY_MS,
  DEFAULT_MAX_TICKS,
  DEFAULT_MEMORY_BYTES,
  MAX_LOG_BYTES,
  MAX_LOG_ENTRIES,
  MAX_LOG_ENTRY_CHARS,
  MAX_RESULT_BYTES,
} from './sandbox-config.js';
export { sandboxMainModule } from './sandbox-main.js';
export type { DeclaredTool } from './tool-declarations.js';
export { toolDeclarations } from './tool-declarations.js';
