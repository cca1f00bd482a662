/**
 * Child threads (SUB-2 to SUB-7, ATT-4): starting them, deferring those that lack variables, files
 * crossing by copy, and children reporting to their parent.
 */
export {
  bootDeferredChild,
  forEachChild,
  messageInstance,
  spawnForTool,
  startChild,
  viewDeferredChild,
} from './child-spawning.js';
export { reportChildStatus, sendOwnStatus } from './child-status.js';
export { notifyParentThread, SCOPED_NAMES_KEY } from './child-threads.js';
export { receiveChildFiles } from './cross-thread-files.js';
export { answerFamilyCall, type FamilyHost, familyAction } from './family-calls.js';
export { FamilyCallFailed, type FamilyStateHost, familyState, propagateEnv } from './family-state.js';
export { ParentReporter } from './parent-reports.js';
