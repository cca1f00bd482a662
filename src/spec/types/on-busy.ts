/**
 * What a message does when it arrives while its thread is busy (a turn running, a wait open, calls
 * held): `defineAgent({ onBusy })` sets it for an agent's threads, and a message may give its own.
 */

/**
 * - `enqueue`: the message waits and is delivered to the running turn between its steps (the default);
 * - `reject`: the message is refused (409 `thread_busy`) and nothing is stored;
 * - `interrupt`: the running turn stops at its next safe point (a running tool finishes and its result
 *   is kept; calls not started are answered as interrupted), then the message runs;
 * - `rollback`: as `interrupt`, then what the interrupted turn added to the log (its starting message
 *   included) is removed and the files it changed are put back, then the message runs.
 */
export type OnBusy = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

/** Every value of OnBusy, in the order the documentation lists them. */
export const ON_BUSY_VALUES: readonly OnBusy[] = ['enqueue', 'reject', 'interrupt', 'rollback'];

export function isOnBusy(value: unknown): value is OnBusy {
  return typeof value === 'string' && (ON_BUSY_VALUES as readonly string[]).includes(value);
}
