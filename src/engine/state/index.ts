/**
 * The groups of `ThreadState` members beyond a tool call's own, one file each: the message log
 * (pages, one message, changes, removal, queued tools, termination), the thread's files as the
 * specification has them, scheduled effects, the application's definitions (`loadModel` and its
 * kin) and the thread's variables and family (`setEnv`, `envType`, `children`, `getChildThread`,
 * `getParentThread`). The state itself is assembled from them in execute/.
 */

export { type DefinitionCatalog, type ResourceMembers, readOnlyView, resourceMembers } from './definitions.js';
export { effectArgsProblem, effectMembers } from './effect-members.js';
export { type HierarchyMembers, hierarchyMembers, registryEntry, type VariableView } from './family.js';
export { stateFiles, writeOptions } from './file-members.js';
export {
  messageMembers,
  pageOfMessages,
  QUEUED_TOOL_KEY,
  refuseTerminated,
  terminatedAt,
} from './message-members.js';
