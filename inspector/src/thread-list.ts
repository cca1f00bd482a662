/** The threads screen: a form to start a thread, filters, and the list of the key's threads. */

import type { ListThreadsQuery } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, field, h, replace } from './dom.js';
import { dateTime, shortId } from './format.js';
import type { AgentSummary, ThreadSummary } from './types.js';

/** The statuses the list can be filtered by (`GET /api/threads?status=`). */
const STATUSES = ['idle', 'running', 'error'];

export function threadLink(id: string, text = shortId(id)): HTMLAnchorElement {
  return h('a', { href: `#/threads/${id}`, title: id }, text);
}

function agentOptions(agents: AgentSummary[], any: string | null): HTMLOptionElement[] {
  const options = agents.map((agent) =>
    h(
      'option',
      { value: agent.name },
      agent.title && agent.title !== agent.name ? `${agent.title} (${agent.name})` : agent.name,
    ),
  );
  return any === null ? options : [h('option', { value: '' }, any), ...options];
}

export function threadListScreen(api: Api, navigate: (hash: string) => void): HTMLElement {
  const agentsReady = api.client.agents.list().then((list) => list.agents);

  // Starting a thread.
  const agent = h('select', { name: 'agent', required: true });
  const tags = h('input', { name: 'tags', type: 'text', placeholder: 'e.g. demo, triage' });
  const first = h('textarea', { name: 'message', rows: 2, placeholder: 'Leave empty to start an idle thread' });
  const createError = h('p', { role: 'alert', class: 'form-error' });
  const create = h(
    'form',
    { class: 'create', 'aria-labelledby': 'new-thread-title' },
    field('Agent', agent),
    field('Tags', tags, 'Comma-separated'),
    field('First message', first),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create thread')),
    createError,
  );
  create.addEventListener('submit', async (event) => {
    event.preventDefault();
    createError.textContent = '';
    const button = create.querySelector('button');
    if (button) button.disabled = true;
    try {
      const content = first.value.trim();
      const thread = await api.client.threads.create({
        agent: agent.value,
        tags: tags.value
          .split(',')
          .map((tag) => tag.trim())
          .filter(Boolean),
        messages: content ? [{ content }] : [],
      });
      navigate(`#/threads/${thread.id}`);
    } catch (error) {
      createError.textContent = `Could not create the thread: ${describeError(error)}`;
      if (button) button.disabled = false;
    }
  });

  // Filters and the list.
  const agentFilter = h('select', { name: 'agent' });
  const statusFilter = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'Any status'),
    STATUSES.map((status) => h('option', { value: status }, status)),
  );
  const tagFilter = h('input', { name: 'tag', type: 'search', placeholder: 'exact tag' });
  const filters = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter threads' },
    field('Filter by agent', agentFilter),
    field('Filter by status', statusFilter),
    field('Filter by tag', tagFilter),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters')),
  );
  const rows = h('tbody');
  const listStatus = h('p', { role: 'status', class: 'muted' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  let cursor: string | null = null;

  const load = async (append: boolean) => {
    listStatus.textContent = 'Loading…';
    try {
      const query: ListThreadsQuery = {};
      if (agentFilter.value) query.agent = agentFilter.value;
      if (statusFilter.value) query.status = statusFilter.value as ListThreadsQuery['status'];
      if (tagFilter.value.trim()) query.tag = tagFilter.value.trim();
      if (append && cursor) query.cursor = cursor;
      const page = await api.client.threads.list(query);
      if (!append) replace(rows);
      for (const thread of page.threads) rows.append(threadRow(thread));
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      listStatus.textContent = rows.childElementCount === 0 ? 'No threads match.' : '';
    } catch (error) {
      listStatus.textContent = `Could not list threads: ${describeError(error)}`;
    }
  };
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    void load(false);
  });
  for (const control of [agentFilter, statusFilter]) control.addEventListener('change', () => void load(false));
  more.addEventListener('click', () => void load(true));

  void agentsReady.then(
    (agents) => {
      replace(agent, agentOptions(agents, null));
      replace(agentFilter, agentOptions(agents, 'Any agent'));
    },
    (error) => {
      createError.textContent = `Could not list agents: ${describeError(error)}`;
    },
  );
  void load(false);

  return h(
    'div',
    { class: 'threads-screen' },
    h('h1', {}, 'Threads'),
    h('div', { class: 'grid-2' }, [
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'thread-list-title' },
        h(
          'div',
          { class: 'section-head' },
          h('h2', { id: 'thread-list-title' }, 'Your threads'),
          h('button', { type: 'button', onclick: () => void load(false) }, 'Refresh'),
        ),
        filters,
        h(
          'table',
          { class: 'threads', 'aria-labelledby': 'thread-list-title' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Thread', 'Agent', 'Status', 'Tags', 'Parent', 'Created'].map((name) => h('th', { scope: 'col' }, name)),
            ),
          ),
          rows,
        ),
        listStatus,
        more,
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'new-thread-title' },
        h('h2', { id: 'new-thread-title' }, 'New thread'),
        create,
      ),
    ]),
  );
}

function threadRow(thread: ThreadSummary): HTMLTableRowElement {
  return h(
    'tr',
    {},
    h('td', {}, threadLink(thread.id)),
    h('td', {}, thread.agent),
    h('td', {}, badge(thread.status)),
    h(
      'td',
      {},
      thread.tags.map((tag) => h('span', { class: 'tag' }, tag)),
    ),
    h('td', {}, thread.parent_id ? threadLink(thread.parent_id) : '—'),
    h('td', {}, dateTime(thread.created_at)),
  );
}
