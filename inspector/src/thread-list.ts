/** The threads screen: a form to start a thread, and the key's threads, kept live (live-thread-table.ts). */

import { type Api, describeError } from './api.js';
import { field, h, replace } from './dom.js';
import { agentOptions, LiveThreadTable, threadLink } from './live-thread-table.js';
import type { AgentSummary } from './types.js';

export { threadLink };

/** The "New thread" form: an agent, tags and an optional first message; opens the new thread. */
function createForm(api: Api, agents: Promise<AgentSummary[]>, navigate: (hash: string) => void): HTMLFormElement {
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
  void agents.then(
    (list) => replace(agent, agentOptions(list, null)),
    (error) => {
      createError.textContent = `Could not list agents: ${describeError(error)}`;
    },
  );
  return create;
}

export function threadListScreen(api: Api, navigate: (hash: string) => void): HTMLElement {
  const agents = api.client.agents.list().then((list) => list.agents);
  const list = new LiveThreadTable(api);
  void agents.then(
    (loaded) => list.showAgents(loaded),
    () => {},
  );
  void list.reload();

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
          h('button', { type: 'button', onclick: () => void list.reload() }, 'Refresh'),
        ),
        list.filters,
        h('div', { class: 'table-wrap' }, list.table),
        list.status,
        list.more,
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'new-thread-title' },
        h('h2', { id: 'new-thread-title' }, 'New thread'),
        createForm(api, agents, navigate),
      ),
    ]),
  );
}
