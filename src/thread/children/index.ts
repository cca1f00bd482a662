/** The children room's door: what the rest of the runtime may use of it. */
export {
  bootDeferredChild,
  forEachChild,
  messageInstance,
  spawnForTool,
  startChild,
  viewDeferredChild,
} from './child-spawning.js';
export { notifyParentThread } from './child-threads.js';
export { ParentReporter } from './parent-reports.js';
