/** Formatting of times, sizes, tokens and JSON for display. */

export function shortId(id: string): string {
  return id.slice(0, 8);
}

export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

export function time(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { timeStyle: 'medium' });
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function bytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The name a user gave a stored file: a message's or a tool's file is stored under a name starting
 * with the id that made its path unique (`/attachments/<uuid>-shot.png`); shown, or sent again,
 * without it.
 */
export function givenName(stored: string): string {
  return stored.replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(?=.)/i, '');
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function dollars(value: number): string {
  return value === 0 ? '$0' : `$${value.toFixed(value < 0.01 ? 6 : 4)}`;
}

/** Pretty JSON; a string that holds JSON is shown as the JSON it holds. */
export function json(value: unknown): string {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return JSON.stringify(JSON.parse(trimmed), null, 2);
      } catch {
        return value;
      }
    }
    return value;
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Parses a tool call's arguments string; the raw text when it is not JSON. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
