/**
 * A thread's variables used as flags (SUB-3): a tool marked `optional` is offered only while the
 * variable its flag names is on, and a lifecycle tool checks the same flag when it is called. The
 * variables are part of what a turn is given (turn-types.ts).
 */

/** An `optional` flag variable is on when it says true, 1 or yes, in any case (SUB-3). */
export function flagOn(variables: Readonly<Record<string, string>> | undefined, flag: string | undefined): boolean {
  return flag === undefined || /^(true|1|yes)$/i.test((variables?.[flag] ?? '').trim());
}
