/**
 * The requests-per-minute window in the Tenant object's memory, not its SQLite (IDN-5). Every signed-in
 * request of a limited tenant passes here, and a SQLite write holds each answer until it is durable
 * (about 1.5 to 3.5 ms a request under wrangler dev); memory answers at once.
 *
 * Nothing exact is lost by it: a Durable Object stays in memory while requests keep arriving and is
 * evicted only after more than a minute without any, by which time every request it counted has left
 * the 60-second window anyway. What resets it is a redeploy or a crash of the object, after which a
 * tenant may get up to one more window's worth of requests.
 */

interface Event {
  key: string;
  at: number;
}

/** The same log as the SQL rows keep for thread starts, held in memory: events by kind, oldest first. */
export class MemoryEventLog {
  private readonly byKind = new Map<string, Event[]>();

  dropEvents(kind: string, before: number): void {
    const events = this.byKind.get(kind);
    if (!events) return;
    let first = 0;
    while (first < events.length && (events[first] as Event).at <= before) first++;
    // Events arrive in time order; a clock a test moved back is the one exception, filtered fully.
    const rest = events.slice(first).filter((event) => event.at > before);
    this.byKind.set(kind, rest);
  }

  events(kind: string, key?: string): { count: number; oldest: number | null } {
    let count = 0;
    let oldest: number | null = null;
    for (const event of this.byKind.get(kind) ?? []) {
      if (key !== undefined && event.key !== key) continue;
      count++;
      if (oldest === null || event.at < oldest) oldest = event.at;
    }
    return { count, oldest };
  }

  addEvent(kind: string, key: string, at: number): void {
    const events = this.byKind.get(kind) ?? [];
    events.push({ key, at });
    this.byKind.set(kind, events);
  }
}
