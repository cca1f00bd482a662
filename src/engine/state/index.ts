/**
 * Groups of `ThreadState` members that need nothing of a running call: the application's
 * definitions (`loadModel` and its kin) and the thread's variables and family (`setEnv`, `envType`,
 * `children`, `getChildThread`, `getParentThread`). The state itself is built in execute/.
 */
export { type DefinitionCatalog, type ResourceMembers, readOnlyView, resourceMembers } from './definitions.js';
export { type HierarchyMembers, hierarchyMembers, registryEntry, type VariableView } from './family.js';
