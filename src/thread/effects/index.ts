/**
 * A thread's scheduled effects (the Effects chapter): the queue `state.scheduleEffect` stores runs in,
 * the runner the object's alarm calls to run those due, and the API's view of them.
 */
export { DurableEffectQueue } from './effect-queue.js';
export { EffectRunner, type EffectRunnerHost } from './effect-runner.js';
export { cancelEffect, effectList } from './effect-views.js';
