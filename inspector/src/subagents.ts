/** A thread's subagents as a tree: each child thread links to its own view, with its children below. */
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { shortId } from './format.js';
import type { ThreadDetails } from './types.js';

/** How many levels below the thread the tree shows. */
const MAX_DEPTH = 4;

/** What a child was started for: its `task:` or `name:` tag, else nothing. */
function purpose(tags: string[]): string | null {
  for (const tag of tags) {
    const match = /^(task|name):(.+)$/.exec(tag);
    if (match?.[2]) return match[2];
  }
  return null;
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
    const items = await Promise.all(children.map((child) => this.child(child.id, depth)));
    return h('ul', { class: 'subagents', 'aria-label': depth === 1 ? 'Subagent tree' : undefined }, items);
  }

  private async child(id: string, depth: number): Promise<HTMLLIElement> {
    let details: ThreadDetails;
    try {
      details = await this.api.client.threads.get(id);
    } catch (error) {
      return h('li', {}, h('a', { href: `#/threads/${id}` }, shortId(id)), ` (${describeError(error)})`);
    }
    const what = purpose(details.tags);
    const label = [details.agent, what].filter(Boolean).join(' · ');
    return h(
      'li',
      {},
      h('a', { href: `#/threads/${id}`, title: id }, `${label} (${shortId(id)})`),
      ' ',
      badge(details.status),
      details.children.length > 0 && depth < MAX_DEPTH ? await this.level(details.children, depth + 1) : null,
    );
  }
}
