/**
 * The `run_code` tool (CODE-1): a program calling the prompt's other tools, in a sandbox.
 */
export { RUN_CODE_TIMEOUT_MS, RUN_CODE_TOOL, runCode } from './run-code.js';
