/**
 * One thread, laid out as a chat: its header, the live log, and docked at the bottom of the window
 * what it waits for and a message box; beside them its todo list, subagents, forks, the timeline of
 * its turns, files, effects, schedules, usage, details and the raw frames. The stored log and the
 * thread's state are read once; then the stream replays the frames from the first (the raw frames
 * view shows them, the log places the failed turns they record) and every newer frame is handed to
 * the part it concerns (frame-router.ts). The parts beside the log are refreshed from the thread's
 * state when a frame says it changed. Opened at a message (`?at=<message id>`, as the link to where
 * a fork was made says), the log scrolls to it once read.
 */
import type { ThreadStream } from '../../client/index.js';
import { AlertList } from './alerts.js';
import { type Api, describeError } from './api.js';
import { Composer } from './composer.js';
import { DetailsPanel } from './details-panel.js';
import { h } from './dom.js';
import { EffectsPanel } from './effects-panel.js';
import { FilesPanel } from './files.js';
import { Follow } from './follow.js';
import { forkFrom } from './fork-action.js';
import { takeNote } from './fork-notes.js';
import { ForkTree } from './fork-tree.js';
import { shortId } from './format.js';
import { routeFrame, type ThreadParts } from './frame-router.js';
import { LogView } from './log.js';
import { Thumbnails } from './message-files.js';
import { RawFrames } from './raw-frames.js';
import { SchedulesPanel } from './schedules-panel.js';
import { SubagentTree } from './subagents.js';
import { ThreadHeader } from './thread-header.js';
import { TimelinePanel } from './timeline.js';
import { showLogEntry } from './timeline-log-link.js';
import { TodoPanel } from './todo-panel.js';
import type { ThreadDetails } from './types.js';
import { UsagePanel } from './usage.js';
import { WaitsPanel } from './waits.js';

export interface Screen {
  element: HTMLElement;
  dispose(): void;
}

/** Every part of the screen, built once. */
interface ScreenParts extends ThreadParts {
  alerts: AlertList;
  composer: Composer;
  files: FilesPanel;
  forks: ForkTree;
  thumbnails: Thumbnails;
  effects: EffectsPanel;
  schedules: SchedulesPanel;
  subagents: SubagentTree;
  todo: TodoPanel;
  raw: RawFrames;
  /** The bottom of the window: the jump control, what the thread waits for, the message box. */
  dock: HTMLElement;
  follow: Follow;
}

/** Opens a thread made from this one (a fork, an edited message's thread). */
function openThread(threadId: string): void {
  location.hash = `#/threads/${encodeURIComponent(threadId)}`;
}

/** Scrolls the log to a message's entry and marks it, if the log shows it. */
function showMessage(log: LogView, messageId: string): void {
  const entry = log.element.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (entry) showLogEntry(log.element, entry);
}

function buildParts(api: Api, id: string): ScreenParts {
  const alerts = new AlertList();
  const showError = (text: string) => alerts.show(text);
  const download = (path: string) => {
    api.download(id, path).catch((error) => showError(`Could not download ${path}: ${describeError(error)}`));
  };
  const todo = new TodoPanel();
  const thumbnails = new Thumbnails((path) => api.blob(id, path));
  const composer = new Composer(api, id, { showError, openThread });
  const forkHooks = { alert: alerts.show.bind(alerts), openThread, showMessage: (at: string) => showMessage(log, at) };
  const log: LogView = new LogView({
    download,
    thumbnails,
    callEnded: (name, args, status) => todo.callEnded(name, args, status),
    fork: (at) => void forkFrom(api, id, at, forkHooks),
    edit: (message) => void composer.edit(message),
  });
  const waits = new WaitsPanel(api, id);
  const dock = h('div', { class: 'dock' }, waits.element, h('section', { class: 'card' }, composer.element));
  const follow = new Follow(log.element, dock);
  dock.prepend(follow.jump);
  return {
    alerts,
    header: new ThreadHeader(api, id, showError),
    log,
    waits,
    files: new FilesPanel(api, id, { download }),
    forks: new ForkTree(api, id),
    thumbnails,
    effects: new EffectsPanel(api, id, showError),
    schedules: new SchedulesPanel(api, id, showError),
    usage: new UsagePanel(),
    subagents: new SubagentTree(api),
    timeline: new TimelinePanel(api, id, log.element),
    details: new DetailsPanel(),
    composer,
    todo,
    raw: new RawFrames(),
    dock,
    follow,
  };
}

/**
 * Files dropped beside the message box are not attached, and must not make the browser open them in
 * place of the page (and lose what the box holds): the drag shows no drop there. The message box
 * takes its own drops first.
 */
function ignoreStrayDrop(event: Event): void {
  const drag = event as DragEvent;
  if (drag.defaultPrevented || !drag.dataTransfer?.types.includes('Files')) return;
  drag.preventDefault();
  drag.dataTransfer.dropEffect = 'none';
}

function layout(id: string, parts: ScreenParts): HTMLElement {
  return h(
    'div',
    { class: 'thread-screen', ondragover: ignoreStrayDrop, ondrop: ignoreStrayDrop },
    h(
      'nav',
      { 'aria-label': 'Breadcrumb', class: 'breadcrumb' },
      h('a', { href: '#/' }, 'Threads'),
      ' / ',
      shortId(id),
    ),
    parts.header.element,
    parts.alerts.element,
    h(
      'div',
      { class: 'thread-layout' },
      h(
        'div',
        { class: 'thread-main' },
        h(
          'section',
          { class: 'card log-card', 'aria-labelledby': 'log-title' },
          h('h2', { id: 'log-title' }, 'Log'),
          parts.log.element,
        ),
        parts.dock,
      ),
      h(
        'aside',
        { class: 'thread-side', 'aria-label': 'Thread panels' },
        parts.todo.element,
        parts.subagents.element,
        parts.forks.element,
        parts.timeline.element,
        parts.files.element,
        parts.effects.element,
        parts.schedules.element,
        parts.usage.element,
        parts.details.element,
        parts.raw.element,
      ),
    ),
  );
}

/** What the stream's handlers need from the screen. */
interface StreamHooks {
  refreshSoon(withFiles: boolean): void;
  showError(text: string): void;
  disposed(): boolean;
}

/**
 * The thread's frames from the first. Those up to `read` (what the page has read already) only feed
 * the raw view and place failed turns in the log, since nothing else records where they happened;
 * newer ones go to the part they concern.
 */
function openStream(api: Api, id: string, parts: ScreenParts, read: number, hooks: StreamHooks): ThreadStream {
  const live = api.client.stream(id, { after: 0 });
  live.onState((state) => {
    parts.header.setConnection(state);
    if (state === 'closed' && live.error && !hooks.disposed())
      hooks.showError(`The live log stopped: ${describeError(live.error)}`);
  });
  live.on('*', (frame) => {
    parts.raw.add(frame);
    if (frame.seq <= read) parts.log.history(frame);
    else routeFrame(frame, parts, hooks.refreshSoon);
  });
  return live;
}

export function threadScreen(api: Api, id: string, at: string | null = null): Screen {
  const parts = buildParts(api, id);
  const showError = (text: string) => parts.alerts.show(text);
  // What the fork or edit that made this thread left behind, said once.
  const note = takeNote(id);
  if (note) parts.alerts.show(note).className = 'note fork-note';
  let disposed = false;

  function showDetails(details: ThreadDetails): void {
    parts.header.show(details);
    parts.waits.set(details.waiting_for);
    parts.usage.show(details.usage, details.budget);
    parts.details.show(details);
    void parts.subagents.show(details.children);
  }

  // The panels beside the log follow the thread, refreshed at most every few hundred ms; of
  // overlapping refreshes only the newest is shown.
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshFiles = false;
  let refreshes = 0;
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
        // Any call or alarm may have scheduled, run or finished an effect, or fired a schedule.
        void parts.effects.refresh();
        void parts.schedules.refresh();
        if (withFilesNow) await parts.files.refresh();
      } catch (error) {
        if (!disposed) showError(`Could not refresh the thread: ${describeError(error)}`);
      }
    }, 250);
  }

  let stream: ThreadStream | null = null;
  const start = async () => {
    try {
      // The state first, then the log: frames after the state's last one replay anything newer, and
      // replayed frames for what the log already holds change nothing.
      const details = await api.client.threads.get(id);
      showDetails(details);
      for (const stored of await api.messages(id)) parts.log.message(stored);
      for (const wait of details.waiting_for) parts.log.waiting(wait.tool_call_id, wait.name, wait.kind, wait.payload);
      if (at) showMessage(parts.log, at);
      void parts.files.refresh();
      void parts.forks.refresh();
      void parts.effects.refresh();
      void parts.schedules.refresh();
      void parts.timeline.refresh();
      if (disposed) return;
      stream = openStream(api, id, parts, details.last_frame_seq, { refreshSoon, showError, disposed: () => disposed });
    } catch (error) {
      showError(`Could not open the thread: ${describeError(error)}`);
    }
  };
  void start();

  return {
    element: layout(id, parts),
    dispose() {
      disposed = true;
      clearTimeout(refreshTimer);
      stream?.close();
      parts.follow.dispose();
      parts.thumbnails.dispose();
    },
  };
}
