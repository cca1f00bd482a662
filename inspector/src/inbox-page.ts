/**
 * The Inbox: every call waiting for a person in the threads this key sees (`GET /api/waits`), the
 * longest waiting first, each with its thread, agent and the form that answers it (the thread
 * screen's own forms, waits.ts), so an approval or a question is answered from here without opening
 * the thread. An answered wait leaves at once; the list is read again every few seconds and on
 * Refresh, keeping the rows (and what is typed into them) of waits still open.
 */
import type { OpenWait } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { field, h, replace } from './dom.js';
import { dateTime } from './format.js';
import { threadLink } from './live-thread-table.js';
import type { Screen } from './thread-view.js';
import { WaitsPanel } from './waits.js';

/** How often the inbox is read again. */
export const INBOX_POLL_MS = 3_000;
/** A page of waits, and the most the inbox shows (the oldest first: the rest wait their turn). */
const PAGE = 200;
const MOST = 1_000;

/** The kinds the list can be narrowed to, with what each shows. */
const KINDS: readonly [string, string][] = [
  ['approval', 'Approvals'],
  ['question', 'Questions'],
  ['client_tool,hitl', 'Tool output'],
  ['secret', 'Secrets'],
  ['mcp_auth', 'Authorizations'],
  ['subagent', 'Subagents'],
];

function keyOf(wait: OpenWait): string {
  return `${wait.thread_id}/${wait.tool_call_id}/${wait.kind}`;
}

class Inbox {
  readonly list = h('div', { class: 'inbox-list' });
  readonly status = h('p', { role: 'status', class: 'muted' });
  readonly kindFilter = h(
    'select',
    { name: 'kind' },
    h('option', { value: '' }, 'Every kind'),
    KINDS.map(([value, text]) => h('option', { value }, text)),
  );
  /** The rows shown, by wait. */
  private readonly rows = new Map<string, HTMLElement>();
  /** Waits answered here: not shown again while the index still lists them (their turn is starting). */
  private readonly answered = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;
  private disposed = false;
  /** More waits are open than the inbox shows. */
  private more = false;

  constructor(private readonly api: Api) {
    this.kindFilter.addEventListener('change', () => void this.reload(true));
  }

  /** Reads every open wait again; `fresh` when the filter changed, so no row of the old one stays. */
  async reload(fresh = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    const generation = ++this.generation;
    if (fresh) this.show([]);
    try {
      const waits = await this.readAll();
      if (generation === this.generation && !this.disposed) this.show(waits);
    } catch (error) {
      if (generation === this.generation) this.status.textContent = `Could not list waits: ${describeError(error)}`;
    }
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      // A hidden tab is not read; it is read again as soon as it is next due and visible.
      if (document.hidden) this.schedule();
      else void this.reload();
    }, INBOX_POLL_MS);
  }

  private async readAll(): Promise<OpenWait[]> {
    const kind = this.kindFilter.value || undefined;
    const all: OpenWait[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.api.client.waits.list({ kind, limit: PAGE, cursor });
      all.push(...page.waits);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && all.length < MOST);
    this.more = cursor !== undefined;
    return all;
  }

  /** Shows exactly these waits, in this order, keeping the rows already shown. */
  private show(waits: OpenWait[]): void {
    const listed = new Set(waits.map(keyOf));
    // A wait answered here and no longer listed is over: it need not be remembered.
    for (const key of [...this.answered]) if (!listed.has(key)) this.answered.delete(key);
    const open = waits.filter((wait) => !this.answered.has(keyOf(wait)));
    const keep = new Set(open.map(keyOf));
    for (const [key, row] of this.rows) {
      if (keep.has(key)) continue;
      row.remove();
      this.rows.delete(key);
    }
    for (const wait of open) {
      const key = keyOf(wait);
      const row = this.rows.get(key) ?? this.row(wait);
      this.rows.set(key, row);
      // Appending an element already in the list moves it: the rows end in the listing's order.
      this.list.append(row);
      const lasted = row.querySelector('time.since');
      if (lasted) lasted.textContent = since(wait.created_at);
    }
    this.count(open.length);
  }

  private count(waits: number): void {
    const shown = waits === 0 ? 'Nothing is waiting for an answer.' : `${waits} waiting for an answer.`;
    this.status.textContent = this.more ? `${shown} More are waiting: the oldest ${MOST} are shown.` : shown;
  }

  private row(wait: OpenWait): HTMLElement {
    const key = keyOf(wait);
    const done = () => {
      this.answered.add(key);
      this.rows.get(key)?.remove();
      this.rows.delete(key);
      this.count(this.rows.size);
    };
    const about = h(
      'p',
      { class: 'wait-about muted' },
      'Thread ',
      threadLink(wait.thread_id),
      ' · agent ',
      h('code', {}, wait.agent),
      ' · waiting ',
      h(
        'time',
        { class: 'since', datetime: new Date(wait.created_at).toISOString(), title: dateTime(wait.created_at) },
        since(wait.created_at),
      ),
    );
    if (wait.payload_omitted) {
      return h(
        'article',
        { class: `wait wait-${wait.kind}`, 'data-wait': key, 'aria-label': `${wait.kind} in thread ${wait.thread_id}` },
        about,
        h('p', {}, 'Too large to show here: ', threadLink(wait.thread_id, 'answer it in its thread'), '.'),
      );
    }
    const article = new WaitsPanel(this.api, wait.thread_id, done).render(wait);
    article.dataset.wait = key;
    article.querySelector('h3')?.after(about);
    return article;
  }
}

/** How long a wait has lasted, as coarse as a person reads it: "40 s", "12 min", "3 h 5 min", "4 days". */
function since(createdAt: number): string {
  const seconds = Math.max(0, Math.floor((Date.now() - createdAt) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

export function inboxScreen(api: Api): Screen {
  const inbox = new Inbox(api);
  void inbox.reload();
  const element = h(
    'div',
    { class: 'inbox-screen' },
    h('h1', {}, 'Inbox'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'inbox-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'inbox-title' }, 'Waiting for an answer'),
        h('button', { type: 'button', onclick: () => void inbox.reload() }, 'Refresh'),
      ),
      h(
        'form',
        { class: 'filters', role: 'search', 'aria-label': 'Filter waits' },
        field('Filter by kind', inbox.kindFilter),
      ),
      inbox.status,
      inbox.list,
    ),
  );
  replace(inbox.list);
  return { element, dispose: () => inbox.dispose() };
}
