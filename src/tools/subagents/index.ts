/**
 * The tools that start subagents (LOCK-1, SUB-2 to SUB-4): task, agents offered as tools, handoffs,
 * and the lifecycle tools of resumable instances.
 */
export { agentTool } from './agent-tool.js';
export { subagentLifecycleTools } from './subagent-lifecycle.js';
export { task } from './task.js';
