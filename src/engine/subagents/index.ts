/**
 * Subagents inside the engine (SUB-1, SUB-3, SUB-4): prompt tools run nested in the thread,
 * immediate subagents started before the first step, and the thread's resumable instances.
 */
export { startImmediateSubagents } from './immediate-subagents.js';
export { SUBAGENT_INSTANCES_KEY, subagentInstances } from './subagent-instances.js';
export { bindSubprompts } from './subprompt.js';
