/**
 * Limits shared by `web_search` and `web_fetch` (LOCK-3): a per-call deadline linked to the tool's own
 * abort signal, and numeric limits read from thread variables.
 */

export interface Deadline {
  readonly signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

/**
 * `signal` aborts when either the limit passes or the thread stops the call (EXE-5); `timedOut` tells
 * which, whatever error fetch raised.
 */
export function deadline(ms: number, parent: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${ms} ms`));
  }, ms);
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort);
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** A positive integer variable, its default when unset; a clear error when it is not a number. */
export function positiveIntVariable(
  variables: Readonly<Record<string, string>>,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = variables[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`variable ${name} must be a positive integer, got "${raw}"`);
  }
  return Math.min(value, max);
}
