/** The turn room's door: what the rest of the runtime may use of it. */
export { TurnDriver } from './turn-driver.js';
export { outcomeEffect } from './turn-outcome.js';
