/** The turn room's door: running a thread's turn (THR-3, DEF-6). */
export { runTurn } from './session.js';
