/** The page's one way to the server: the client library, bound to this origin and the signed-in key. */
import { ApiError, type Client, createClient } from '../../client/index.js';
import type { Message } from './types.js';

export class Api {
  readonly client: Client;

  constructor(readonly apiKey: string) {
    this.client = createClient({ baseUrl: location.origin, apiKey });
  }

  /** The whole log, page after page. */
  async messages(id: string): Promise<Message[]> {
    const all: Message[] = [];
    let after = 0;
    for (;;) {
      const page = await this.client.messages.list(id, { after, limit: 1000 });
      all.push(...page.messages);
      if (page.next_after === null || page.messages.length === 0) return all;
      after = page.next_after;
    }
  }

  /** Saves a file of the thread: the key travels in a header, so the page fetches the bytes itself. */
  async download(id: string, path: string): Promise<void> {
    const response = await this.client.files.get(id, path);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = path.split('/').pop() || 'download';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/** What to tell the user about a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.status} ${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
