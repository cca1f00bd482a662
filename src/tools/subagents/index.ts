/** The subagents room's door: what the rest of the runtime may use of it. */
export { agentTool } from './agent-tool.js';
export { subagentLifecycleTools } from './subagent-lifecycle.js';
export { task } from './task.js';
