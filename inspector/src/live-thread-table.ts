/**
 * The key's threads as a table that stays current without Refresh: new threads appear and statuses
 * change while the page is open. The list asks again every few seconds with the `ETag` of the page
 * it shows; the server answers 304 and sends nothing while nothing changed, so an idle list costs
 * one small indexed read per poll and no rendering. (Threads are Durable Objects of their own and
 * the index is D1: there is no one object whose stream could tell every change, so a conditional
 * poll is the cheap way.) The poll stops when the table leaves the page and skips hidden tabs.
 */
import type { ListThreadsQuery } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, field, h, replace } from './dom.js';
import { dateTime, shortId } from './format.js';
import type { AgentSummary, ThreadSummary } from './types.js';

/** How often the list asks whether its page changed. */
export const POLL_MS = 2_000;
/** A page of the list; the poll asks for as many rows as are shown, up to the API's maximum. */
const PAGE = 50;
const MAX_PAGE = 200;

/** The statuses the list can be filtered by (`GET /api/threads?status=`), with what each shows. */
const STATUSES: readonly [string, string][] = [
  ['waiting', 'waiting on a person'],
  ['running', 'running'],
  ['idle', 'idle'],
  ['error', 'error'],
];

const COLUMNS = ['Thread', 'Agent', 'Status', 'Tags', 'Parent', 'Created'];

export function threadLink(id: string, text = shortId(id)): HTMLAnchorElement {
  return h('a', { href: `#/threads/${id}`, title: id }, text);
}

export function agentOptions(agents: AgentSummary[], any: string | null): HTMLOptionElement[] {
  const options = agents.map((agent) =>
    h(
      'option',
      { value: agent.name },
      agent.title && agent.title !== agent.name ? `${agent.title} (${agent.name})` : agent.name,
    ),
  );
  return any === null ? options : [h('option', { value: '' }, any), ...options];
}

export class LiveThreadTable {
  readonly filters: HTMLFormElement;
  readonly table: HTMLTableElement;
  readonly status = h('p', { role: 'status', class: 'muted' });
  readonly more = h('button', { type: 'button', hidden: true }, 'Load more');
  private readonly agentFilter = h('select', { name: 'agent' });
  private readonly statusFilter = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'Any status'),
    STATUSES.map(([value, text]) => h('option', { value }, text)),
  );
  private readonly tagFilter = h('input', { name: 'tag', type: 'search', placeholder: 'exact tag' });
  private readonly rows = h('tbody');
  /** The threads shown, in order. */
  private threads: ThreadSummary[] = [];
  private cursor: string | null = null;
  /** The tag of the page shown, for If-None-Match; null after "Load more" until the next full read. */
  private etag: string | null = null;
  /** Bumped by every full load, so an answer to an older question never replaces a newer one. */
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly api: Api) {
    this.filters = h(
      'form',
      { class: 'filters', role: 'search', 'aria-label': 'Filter threads' },
      field('Filter by agent', this.agentFilter),
      field('Filter by status', this.statusFilter),
      field('Filter by tag', this.tagFilter),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters')),
    );
    this.table = h(
      'table',
      { class: 'threads', 'aria-labelledby': 'thread-list-title' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
        ),
      ),
      this.rows,
    );
    this.filters.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.reload();
    });
    for (const control of [this.agentFilter, this.statusFilter]) {
      control.addEventListener('change', () => void this.reload());
    }
    this.more.addEventListener('click', () => void this.loadMore());
  }

  showAgents(agents: AgentSummary[]): void {
    replace(this.agentFilter, agentOptions(agents, 'Any agent'));
  }

  /** Reads the first page again for the filters as they are, then keeps it live. */
  async reload(): Promise<void> {
    const generation = ++this.generation;
    this.status.textContent = 'Loading…';
    try {
      const tagged = await this.api.client.threads.listIfChanged(this.query(PAGE), null);
      if (generation === this.generation && tagged)
        this.show(tagged.page.threads, tagged.page.next_cursor, tagged.etag);
    } catch (error) {
      this.status.textContent = `Could not list threads: ${describeError(error)}`;
    }
    this.schedule();
  }

  private async loadMore(): Promise<void> {
    if (!this.cursor) return;
    const generation = this.generation;
    try {
      const page = await this.api.client.threads.list({ ...this.query(PAGE), cursor: this.cursor });
      if (generation !== this.generation) return;
      this.show([...this.threads, ...page.threads], page.next_cursor, null);
    } catch (error) {
      this.status.textContent = `Could not list threads: ${describeError(error)}`;
    }
  }

  /** One poll: the page as shown, asked for with its tag; only a changed page is drawn again. */
  private async poll(): Promise<void> {
    const generation = this.generation;
    const limit = Math.min(MAX_PAGE, Math.max(PAGE, this.rows.childElementCount));
    try {
      const tagged = await this.api.client.threads.listIfChanged(this.query(limit), this.etag);
      if (tagged && generation === this.generation)
        this.show(tagged.page.threads, tagged.page.next_cursor, tagged.etag);
    } catch {
      // A failed poll changes nothing shown; the next one tries again.
    }
  }

  private schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      this.timer = null;
      // The screen was left: the list stops asking.
      if (!this.table.isConnected) return;
      if (!document.hidden) await this.poll();
      if (this.timer === null) this.schedule();
    }, POLL_MS);
  }

  private query(limit: number): ListThreadsQuery {
    const query: ListThreadsQuery = { limit };
    if (this.agentFilter.value) query.agent = this.agentFilter.value;
    if (this.statusFilter.value) query.status = this.statusFilter.value as ListThreadsQuery['status'];
    if (this.tagFilter.value.trim()) query.tag = this.tagFilter.value.trim();
    return query;
  }

  private show(threads: ThreadSummary[], cursor: string | null, etag: string | null): void {
    this.threads = threads;
    replace(this.rows, threads.map(threadRow));
    this.cursor = cursor;
    this.etag = etag;
    this.more.hidden = cursor === null;
    this.status.textContent = threads.length === 0 ? 'No threads match.' : '';
  }
}

/** A row; each cell names its column, which a narrow screen shows beside the value. */
function threadRow(thread: ThreadSummary): HTMLTableRowElement {
  const cell = (column: number, ...content: (Node | string)[]) =>
    h('td', { 'data-label': COLUMNS[column] }, ...content);
  return h(
    'tr',
    {},
    cell(0, threadLink(thread.id)),
    cell(1, thread.agent),
    cell(2, badge(thread.status)),
    cell(3, ...thread.tags.map((tag) => h('span', { class: 'tag' }, tag))),
    cell(4, thread.parent_id ? threadLink(thread.parent_id) : '—'),
    cell(5, dateTime(thread.created_at)),
  );
}
