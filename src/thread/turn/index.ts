/**
 * The turn driven by the Durable Object alarm (THR-3): running, re-arming the safety alarm, and what
 * an outcome means for the thread's status.
 */
export { BusyInterrupts, type InterruptMode, runningTurnStart } from './busy-interrupts.js';
export { TurnDriver } from './turn-driver.js';
export { holdTurn } from './turn-hold.js';
export { outcomeEffect } from './turn-outcome.js';
export { ThreadTraces, TRACE_PARENT_KEY, type TraceHost } from './turn-traces.js';
