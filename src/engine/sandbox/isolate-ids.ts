/**
 * Which isolate a program runs in (CODE-1). The same code in the same thread may run again in the
 * isolate it ran in before, already compiled (a warm start), but only an isolate whose last run
 * ended cleanly and that no other run is using: a program stopped or over its limits may have left
 * timers or changed globals behind, and two runs at once would share one guard.
 */

/** How many reusable isolates a Worker remembers; older ones are simply started afresh. */
const REMEMBERED = 256;

export class IsolateIds {
  private readonly reusable = new Map<string, string>();
  private readonly busy = new Set<string>();

  /** The id to load `code` under: a warm one when there is one, else a new one. */
  acquire(code: string): string {
    const warm = this.reusable.get(code);
    const id = warm && !this.busy.has(warm) ? warm : `${code}:${crypto.randomUUID()}`;
    this.busy.add(id);
    return id;
  }

  /** The run in `id` ended; `clean` when the isolate may serve the same code again. */
  release(code: string, id: string, clean: boolean): void {
    this.busy.delete(id);
    if (!clean) {
      if (this.reusable.get(code) === id) this.reusable.delete(code);
      return;
    }
    this.reusable.delete(code);
    this.reusable.set(code, id);
    if (this.reusable.size > REMEMBERED) this.reusable.delete(this.reusable.keys().next().value as string);
  }
}
