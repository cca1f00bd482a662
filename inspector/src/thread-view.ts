/**
 * One thread: its header (status, agent, tags, parent, stop), what it waits for, the live log and a
 * message box; beside them its subagents, files, usage and details. The stored log and the thread's
 * state are read once, then every frame after them streams in.
 */
import type { ThreadStream } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { FilesPanel } from './files.js';
import { count, dateTime, shortId } from './format.js';
import { LogView } from './log.js';
import { SubagentTree } from './subagents.js';
import { threadLink } from './thread-list.js';
import type { Frame, ThreadDetails, ThreadStatus } from './types.js';
import { UsagePanel } from './usage.js';
import { WaitsPanel } from './waits.js';

/** Statuses in which a turn can be stopped. */
const STOPPABLE: ThreadStatus[] = ['running', 'waiting', 'awaiting_hitl'];

export interface Screen {
  element: HTMLElement;
  dispose(): void;
}

export function threadScreen(api: Api, id: string): Screen {
  const actions = {
    download: (path: string) => {
      api.download(id, path).catch((error) => showError(`Could not download ${path}: ${describeError(error)}`));
    },
  };
  const log = new LogView(actions);
  const waits = new WaitsPanel(api, id);
  const files = new FilesPanel(api, id, actions);
  const usage = new UsagePanel();
  const subagents = new SubagentTree(api);

  const status = h('span', { role: 'status', 'aria-label': 'Thread status', class: 'thread-status' });
  const connection = h('span', { class: 'connection muted', 'aria-live': 'polite' }, 'connecting…');
  const agent = h('span', { class: 'agent' });
  const tags = h('span', { class: 'tags' });
  const parent = h('span', { class: 'parent' });
  const alerts = h('div', { role: 'alert', class: 'alerts' });
  const detailsList = h('dl', { class: 'details' });
  const frames = h('dd', {});
  /** The newest frame shown. */
  let lastSeq = 0;

  const stop = h('button', { type: 'button', class: 'danger', disabled: true }, 'Stop');
  stop.addEventListener('click', async () => {
    stop.disabled = true;
    try {
      await api.client.threads.stop(id);
    } catch (error) {
      showError(`Could not stop the turn: ${describeError(error)}`);
    }
  });

  const message = h('textarea', { id: 'message', name: 'content', rows: 3, required: true });
  const composerNote = h('p', { role: 'status', class: 'muted small' });
  const composer = h(
    'form',
    { class: 'composer', 'aria-label': 'Post a message' },
    h('label', { for: 'message' }, 'Message'),
    message,
    h(
      'div',
      { class: 'actions' },
      h('span', { class: 'muted small' }, 'Ctrl+Enter sends'),
      h('button', { type: 'submit', class: 'primary' }, 'Send'),
    ),
    composerNote,
  );
  message.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) composer.requestSubmit();
  });
  composer.addEventListener('submit', async (event) => {
    event.preventDefault();
    const content = message.value.trim();
    if (!content) return;
    const button = composer.querySelector('button');
    if (button) button.disabled = true;
    composerNote.textContent = '';
    try {
      const answer = await api.client.messages.post(id, { content });
      message.value = '';
      composerNote.textContent = answer.queued ? 'Queued: it is sent when the current step ends.' : '';
    } catch (error) {
      showError(`Could not post the message: ${describeError(error)}`);
    } finally {
      if (button) button.disabled = false;
    }
  });

  function showError(text: string): void {
    alerts.append(
      h(
        'p',
        { class: 'form-error' },
        text,
        ' ',
        h(
          'button',
          {
            type: 'button',
            class: 'small',
            onclick: (event: Event) => (event.target as HTMLElement).parentElement?.remove(),
          },
          'Dismiss',
        ),
      ),
    );
  }

  function setStatus(value: ThreadStatus, reason?: string): void {
    const shown = badge(value);
    if (reason) shown.title = reason;
    replace(status, shown);
    stop.disabled = !STOPPABLE.includes(value);
  }

  function showDetails(details: ThreadDetails): void {
    setStatus(details.status);
    agent.textContent = details.agent;
    replace(
      tags,
      details.tags.map((tag) => h('span', { class: 'tag' }, tag)),
    );
    replace(
      parent,
      details.parent_id
        ? ['child of ', threadLink(details.parent_id, `parent thread ${shortId(details.parent_id)}`)]
        : null,
    );
    waits.set(details.waiting_for);
    usage.show(details.usage, details.budget);
    lastSeq = Math.max(lastSeq, details.last_frame_seq);
    frames.textContent = count(lastSeq);
    void subagents.show(details.children);
    replace(
      detailsList,
      h('dt', {}, 'Id'),
      h('dd', {}, h('code', {}, details.id)),
      h('dt', {}, 'Created'),
      h('dd', {}, dateTime(details.created_at)),
      h('dt', {}, 'Messages'),
      h('dd', {}, count(details.message_count)),
      h('dt', {}, 'Frames'),
      frames,
      details.headless ? [h('dt', {}, 'Headless'), h('dd', {}, 'yes: questions and asks fail at once')] : null,
      details.last_error ? [h('dt', {}, 'Last error'), h('dd', { class: 'error-text' }, details.last_error)] : null,
    );
  }

  // The panels beside the log follow the thread, refreshed at most every few hundred ms; of
  // overlapping refreshes only the newest is shown.
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshFiles = false;
  let refreshes = 0;
  let disposed = false;
  function refreshSoon(withFiles: boolean): void {
    refreshFiles ||= withFiles;
    if (refreshTimer !== undefined) return;
    refreshTimer = setTimeout(async () => {
      refreshTimer = undefined;
      const withFilesNow = refreshFiles;
      refreshFiles = false;
      const mine = ++refreshes;
      try {
        const details = await api.client.threads.get(id);
        if (disposed || mine !== refreshes) return;
        showDetails(details);
        if (withFilesNow) await files.refresh();
      } catch (error) {
        if (!disposed) showError(`Could not refresh the thread: ${describeError(error)}`);
      }
    }, 250);
  }

  function apply(frame: Frame): void {
    lastSeq = frame.seq;
    frames.textContent = count(lastSeq);
    switch (frame.type) {
      case 'message':
        log.message(frame.message);
        break;
      case 'message_delta':
        log.delta(frame.message_id, frame.delta);
        break;
      case 'message_abandoned':
        log.abandon(frame.message_id);
        break;
      case 'tool_started':
        log.toolStarted(frame.tool_call_id, frame.name, frame.arguments);
        break;
      case 'tool_progress':
        log.toolProgress(frame.tool_call_id, frame.name, frame.event);
        break;
      case 'tool_result':
        log.toolResult(frame.tool_call_id, frame.name, frame.status, frame.envelope);
        refreshSoon(true);
        break;
      case 'waiting':
        log.waiting(frame.tool_call_id, frame.name, frame.kind, frame.payload);
        waits.add({
          tool_call_id: frame.tool_call_id,
          name: frame.name,
          kind: frame.kind,
          payload: frame.payload,
        });
        refreshSoon(false);
        break;
      case 'answered':
        log.answered(frame.tool_call_id, frame.kind);
        waits.remove(frame.tool_call_id);
        refreshSoon(false);
        break;
      case 'status':
        setStatus(frame.status, frame.reason);
        refreshSoon(frame.status !== 'running');
        break;
      case 'usage':
        usage.show({ thread: frame.thread, turn: frame.turn });
        break;
      case 'error':
        log.error(frame.code, frame.message);
        break;
      case 'event':
        log.event(frame.event, frame.data);
        break;
    }
  }

  let stream: ThreadStream | null = null;
  const start = async () => {
    try {
      // The state first, then the log: frames after the state's last one replay anything newer, and
      // replayed frames for what the log already holds change nothing.
      const details = await api.client.threads.get(id);
      showDetails(details);
      for (const stored of await api.messages(id)) log.message(stored);
      for (const wait of details.waiting_for) log.waiting(wait.tool_call_id, wait.name, wait.kind, wait.payload);
      void files.refresh();
      if (disposed) return;
      const live = api.client.stream(id, { after: details.last_frame_seq });
      stream = live;
      live.onState((state) => {
        connection.textContent = state === 'open' ? 'live' : state;
        connection.dataset.state = state;
        if (state === 'closed' && live.error && !disposed) {
          showError(`The live log stopped: ${describeError(live.error)}`);
        }
      });
      live.on('*', apply);
    } catch (error) {
      showError(`Could not open the thread: ${describeError(error)}`);
    }
  };
  void start();

  const element = h(
    'div',
    { class: 'thread-screen' },
    h(
      'nav',
      { 'aria-label': 'Breadcrumb', class: 'breadcrumb' },
      h('a', { href: '#/' }, 'Threads'),
      ' / ',
      shortId(id),
    ),
    h(
      'header',
      { class: 'thread-head' },
      h(
        'div',
        {},
        h('h1', {}, 'Thread ', h('code', { title: id }, shortId(id))),
        h('p', { class: 'meta' }, agent, ' ', status, ' ', tags, ' ', parent, ' ', connection),
      ),
      h('div', { class: 'actions' }, stop),
    ),
    alerts,
    h(
      'div',
      { class: 'thread-layout' },
      h(
        'div',
        { class: 'thread-main' },
        waits.element,
        h(
          'section',
          { class: 'card log-card', 'aria-labelledby': 'log-title' },
          h('h2', { id: 'log-title' }, 'Log'),
          log.element,
        ),
        h('section', { class: 'card' }, composer),
      ),
      h(
        'aside',
        { class: 'thread-side', 'aria-label': 'Thread panels' },
        subagents.element,
        files.element,
        usage.element,
        h(
          'section',
          { class: 'card', 'aria-labelledby': 'details-title' },
          h('h2', { id: 'details-title' }, 'Details'),
          detailsList,
        ),
      ),
    ),
  );

  return {
    element,
    dispose() {
      disposed = true;
      clearTimeout(refreshTimer);
      stream?.close();
    },
  };
}
