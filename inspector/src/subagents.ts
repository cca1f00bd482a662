/**
 * A thread's subagents as a tree: each child thread links to its own view, with its status, how long
 * a finished child ran (from the thread list's `created_at` to its last status change, `updated_at`)
 * and its own children below.
 */
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { duration, shortId } from './format.js';
import type { ThreadDetails, ThreadSummary } from './types.js';

/** How many levels below the thread the tree shows. */
const MAX_DEPTH = 4;
/** The most children of one thread the list is asked for at once (the API's page maximum). */
const MAX_CHILDREN = 200;

/** What a child was started for: its `task:` or `name:` tag, else nothing. */
function purpose(tags: string[]): string | null {
  for (const tag of tags) {
    const match = /^(task|name):(.+)$/.exec(tag);
    if (match?.[2]) return match[2];
  }
  return null;
}

/** How long a child that finished ran; nothing for one still at work or waiting. */
function ranFor(row: ThreadSummary | undefined): string | null {
  if (!row || (row.status !== 'idle' && row.status !== 'error')) return null;
  return `ran ${duration(Math.max(0, row.updated_at - row.created_at))}`;
}

export class SubagentTree {
  readonly element: HTMLElement;
  private readonly body = h('div', {});

  constructor(private readonly api: Api) {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'subagents-title' },
      h('h2', { id: 'subagents-title' }, 'Subagents'),
      this.body,
    );
  }

  async show(children: ThreadDetails['children']): Promise<void> {
    replace(
      this.body,
      children.length === 0 ? h('p', { class: 'muted' }, 'No child threads.') : await this.level(children, 1),
    );
  }

  private async level(children: ThreadDetails['children'], depth: number): Promise<HTMLElement> {
    const details = await Promise.all(children.map((child) => this.details(child.id)));
    const found = details.find((each): each is ThreadDetails => !(each instanceof Error));
    const rows = await this.listed(found?.parent_id ?? null);
    const items = await Promise.all(
      children.map((child, index) => this.child(child.id, details[index] as ThreadDetails | Error, rows, depth)),
    );
    return h('ul', { class: 'subagents', 'aria-label': depth === 1 ? 'Subagent tree' : undefined }, items);
  }

  private details(id: string): Promise<ThreadDetails | Error> {
    return this.api.client.threads.get(id).catch((error) => new Error(describeError(error)));
  }

  /** The list rows of one parent's children, by id: one request for the whole level. */
  private async listed(parentId: string | null): Promise<Map<string, ThreadSummary>> {
    if (!parentId) return new Map();
    try {
      const page = await this.api.client.threads.list({ parent: parentId, limit: MAX_CHILDREN });
      return new Map(page.threads.map((row) => [row.id, row]));
    } catch {
      return new Map();
    }
  }

  private async child(
    id: string,
    details: ThreadDetails | Error,
    rows: Map<string, ThreadSummary>,
    depth: number,
  ): Promise<HTMLLIElement> {
    if (details instanceof Error) {
      return h('li', {}, h('a', { href: `#/threads/${id}` }, shortId(id)), ` (${details.message})`);
    }
    const what = purpose(details.tags);
    const label = [details.agent, what].filter(Boolean).join(' · ');
    const ran = ranFor(rows.get(id));
    return h(
      'li',
      {},
      h('a', { href: `#/threads/${id}`, title: id }, `${label} (${shortId(id)})`),
      ' ',
      badge(details.status),
      ran ? h('span', { class: 'muted' }, ` ${ran}`) : null,
      details.children.length > 0 && depth < MAX_DEPTH ? await this.level(details.children, depth + 1) : null,
    );
  }
}
