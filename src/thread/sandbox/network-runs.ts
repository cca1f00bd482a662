/**
 * The runs of a thread that hold a network (CODE-1): a program's request arrives at the thread with
 * its run's id and leaves through that run's `state.fetch`. A run is known only while it runs: a
 * request after its end, or naming no run of this thread, is refused.
 */
export type RunFetch = (request: Request) => Promise<Response>;

export class NetworkRuns {
  private readonly runs = new Map<string, RunFetch>();

  /** Registers a run; returns its id and the call that ends it. */
  open(fetch: RunFetch): { run: string; close(): void } {
    const run = crypto.randomUUID();
    this.runs.set(run, fetch);
    return { run, close: () => this.runs.delete(run) };
  }

  async fetch(run: string, request: Request): Promise<Response> {
    const fetch = this.runs.get(run);
    if (!fetch) return new Response('this program has no network (its run has ended)', { status: 403 });
    try {
      return await fetch(request);
    } catch (error) {
      // The refusal reaches the program as an answer it can read, not as a broken connection.
      return new Response((error as Error).message, { status: 403 });
    }
  }
}
