/** The subagents room's door: what the rest of the runtime may use of it. */
export { startImmediateSubagents } from './immediate-subagents.js';
export { SUBAGENT_INSTANCES_KEY, subagentInstances } from './subagent-instances.js';
export { bindSubprompts } from './subprompt.js';
