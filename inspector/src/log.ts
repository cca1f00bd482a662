/**
 * The live log of a thread: its messages as they are stored and as they stream in (text deltas),
 * the files a user sent with a message (message-files.ts), each tool call (tool-call-view.ts),
 * failed turns where they happened, and a marker on replies cut short by Stop. Each stored message
 * can start a fork ("Fork from here"); a user message can be edited and sent again in a new
 * thread. Frames replayed for what is already shown change nothing.
 */
import { h } from './dom.js';
import { failedTurnEntry } from './failed-turn.js';
import { json, parseArguments, time } from './format.js';
import { type MessageFileActions, messageFiles } from './message-files.js';
import { type ApprovalAuthor, ToolCallView } from './tool-call-view.js';
import type { Frame, Message, ToolEnvelope } from './types.js';

export { downloadLink, type LogActions } from './tool-call-view.js';

/** What the log's entries can do besides show: downloads, images, forks and edits. */
export interface LogEntryActions extends MessageFileActions {
  /** "Fork from here": a new thread up to and including this message. */
  fork?(messageId: string): void;
  /** "Edit": the composer takes this user message's text and files. */
  edit?(message: Message): void;
}

const ROLE_LABEL: Record<Message['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

interface MessageEntry {
  item: HTMLLIElement;
  time: HTMLTimeElement;
  text: HTMLElement;
  calls: HTMLElement;
  /** The files sent with the message and the buttons acting on it, once it is stored. */
  footer: HTMLElement;
  /** The stored message arrived: deltas replayed for it change nothing. */
  complete: boolean;
}

export class LogView {
  readonly element = h('ol', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Thread log' });
  private readonly messages = new Map<string, MessageEntry>();
  private readonly calls = new Map<string, ToolCallView>();
  private readonly empty = h('li', { class: 'muted empty' }, 'No messages yet.');
  /** Where the next failed turn read from the history goes: after the last message it replayed. */
  private anchor: HTMLLIElement | null = null;

  constructor(private readonly actions: LogEntryActions) {
    this.element.append(this.empty);
  }

  /** A stored message: added, or completing the one its deltas started. */
  message(message: Message): void {
    if (message.silent) return;
    if (message.role === 'tool') {
      this.toolMessage(message);
      return;
    }
    let entry = this.messages.get(message.id);
    if (!entry) entry = this.addEntry(message.id, message.role, message);
    if (!entry.complete) this.addFooter(entry, message);
    entry.complete = true;
    entry.item.classList.remove('streaming');
    entry.time.dateTime = new Date(message.created_at).toISOString();
    entry.time.textContent = time(message.created_at);
    entry.text.textContent = message.content ?? '';
    entry.text.hidden = !message.content;
    if (message.metadata?.aborted === true) this.markStopped(entry);
    for (const call of message.tool_calls ?? []) {
      if (this.calls.has(call.id)) continue;
      const view = new ToolCallView(call.id, call.function.name, this.actions, message.created_at);
      view.setArguments(parseArguments(call.function.arguments));
      this.calls.set(call.id, view);
      entry.calls.append(view.element);
    }
  }

  /**
   * A frame from before the page opened. Its messages are already shown (read from the stored log),
   * but a failed turn is recorded only as a frame: it goes right after the message before it.
   */
  history(frame: Frame): void {
    if (frame.type === 'message') {
      this.anchor = this.itemOf(frame.message) ?? this.anchor;
    } else if (frame.type === 'error') {
      const item = this.wrap(failedTurnEntry(frame.code, frame.message));
      if (this.anchor) this.anchor.after(item);
      else this.element.prepend(item);
      this.anchor = item;
    }
  }

  /** A piece of model text for a message not yet stored. */
  delta(messageId: string, text: string): void {
    let entry = this.messages.get(messageId);
    if (entry?.complete) return;
    if (!entry) entry = this.addEntry(messageId, 'assistant', null);
    entry.item.classList.add('streaming');
    entry.text.hidden = false;
    entry.text.textContent = (entry.text.textContent ?? '') + text;
  }

  /** A stored message was changed: its text is shown as it now is. */
  updated(message: Message): void {
    const entry = this.messages.get(message.id);
    if (!entry || message.role === 'tool') return;
    entry.text.textContent = message.content ?? '';
    entry.text.hidden = !message.content;
  }

  /** Stored messages were removed: their entries go, with the calls shown inside them. */
  removed(messageIds: readonly string[]): void {
    for (const id of messageIds) {
      this.messages.get(id)?.item.remove();
      this.messages.delete(id);
    }
  }

  /** Text streamed under this id will never become a message: it goes. */
  abandon(messageId: string): void {
    const entry = this.messages.get(messageId);
    if (!entry || entry.complete) return;
    entry.item.remove();
    this.messages.delete(messageId);
  }

  toolStarted(id: string, name: string, args: unknown): void {
    this.call(id, name).started(args);
  }

  toolProgress(id: string, name: string, event: unknown): void {
    this.call(id, name).addProgress(event);
  }

  toolResult(id: string, name: string, status: 'success' | 'error', envelope: ToolEnvelope): void {
    const view = this.call(id, name);
    if (!view.done) view.finish(status, envelope, null);
  }

  waiting(id: string, name: string, kind: string, payload: unknown): void {
    const view = this.call(id, name);
    view.waiting(kind);
    const child = kind === 'subagent' ? (payload as { child_id?: unknown } | null)?.child_id : undefined;
    if (typeof child === 'string') view.linkChild(child);
  }

  answered(id: string, kind: string, by?: ApprovalAuthor, approved?: boolean): void {
    const view = this.calls.get(id);
    view?.answered(kind);
    if (by) view?.answeredBy(by, approved ?? null);
  }

  /** A turn failed or hit a limit, now: it goes at the end. */
  error(code: string, message: string): void {
    this.item(failedTurnEntry(code, message));
  }

  /** A custom event a tool emitted. */
  event(name: string, data: unknown): void {
    this.item(
      h(
        'article',
        { class: 'entry entry-event', 'aria-label': `Event ${name}` },
        h('header', {}, h('strong', {}, 'Event'), ' ', h('code', {}, name)),
        h('pre', { class: 'json' }, json(data)),
      ),
    );
  }

  private toolMessage(message: Message): void {
    const id = message.tool_call_id ?? message.id;
    const view = this.call(id, message.name ?? 'tool');
    view.finish(message.tool_status ?? 'success', message.envelope, message.content, message.attachments);
    this.resultActions(view.element, message.id);
    const approval = message.metadata?.approval as { approved?: boolean; answered_by?: ApprovalAuthor } | undefined;
    if (approval?.answered_by) view.answeredBy(approval.answered_by, approval.approved ?? null);
  }

  /** The view of a call, made on its own when its assistant message is not shown. */
  private call(id: string, name: string): ToolCallView {
    let view = this.calls.get(id);
    if (!view) {
      view = new ToolCallView(id, name, this.actions, null);
      this.calls.set(id, view);
      this.item(view.element);
    }
    return view;
  }

  private addEntry(id: string, role: Message['role'], message: Message | null): MessageEntry {
    const side = typeof message?.metadata?.side === 'string' ? `side ${message.metadata.side.toUpperCase()}` : null;
    const depth = message?.depth ?? 0;
    const who = [ROLE_LABEL[role], message?.name, side].filter(Boolean).join(' · ');
    const text = h('div', { class: 'text' });
    const calls = h('div', { class: 'calls' });
    const footer = h('div', { class: 'entry-footer' });
    const stamp = h('time', { class: 'muted' });
    const article = h(
      'article',
      { class: `entry entry-${role}`, 'aria-label': `${ROLE_LABEL[role]} message`, 'data-message-id': id },
      h(
        'header',
        {},
        h('strong', {}, who),
        depth > 0 ? h('span', { class: 'muted' }, ` · inside a prompt tool (depth ${depth})`) : null,
        stamp,
      ),
      text,
      calls,
      footer,
    );
    const item = this.item(article);
    if (depth > 0) item.style.marginInlineStart = `${Math.min(depth, 4) * 1.5}rem`;
    const entry: MessageEntry = { item, time: stamp, text, calls, footer, complete: false };
    this.messages.set(id, entry);
    return entry;
  }

  /**
   * A call's stored result is a message too (after a tool round, its last result is where a fork
   * can start): the call's card is marked with its id and offers Fork from here.
   */
  private resultActions(card: HTMLElement, messageId: string): void {
    const { fork } = this.actions;
    if (card.dataset.messageId) return;
    card.dataset.messageId = messageId;
    if (!fork) return;
    const button = h(
      'button',
      { type: 'button', class: 'small link', onclick: () => fork(messageId) },
      'Fork from here',
    );
    card.append(h('div', { class: 'entry-actions' }, button));
  }

  /** Under a stored message: the files its user sent, then Fork from here and (a user's) Edit. */
  private addFooter(entry: MessageEntry, message: Message): void {
    const { fork, edit } = this.actions;
    const files =
      message.role === 'user' && message.attachments?.length ? messageFiles(message.attachments, this.actions) : null;
    const button = (label: string, act: () => void) =>
      h('button', { type: 'button', class: 'small link', onclick: act }, label);
    entry.footer.append(
      files ?? '',
      h(
        'div',
        { class: 'entry-actions' },
        fork ? button('Fork from here', () => fork(message.id)) : null,
        edit && message.role === 'user' ? button('Edit', () => edit(message)) : null,
      ),
    );
  }

  /** A reply cut short by Stop: the API marks it `metadata.aborted`. */
  private markStopped(entry: MessageEntry): void {
    if (entry.item.querySelector('.stopped')) return;
    entry.item.dataset.stopped = 'true';
    entry.text.after(
      h('p', { class: 'stopped', role: 'note' }, h('strong', {}, 'Stopped'), ' before the reply was complete.'),
    );
  }

  /** The log item showing a stored message, if it is shown. */
  private itemOf(message: Message): HTMLLIElement | null {
    if (message.silent) return null;
    const shown =
      message.role === 'tool'
        ? this.calls.get(message.tool_call_id ?? message.id)?.element
        : this.messages.get(message.id)?.item;
    return shown?.closest('.log > li') ?? null;
  }

  private wrap(content: HTMLElement): HTMLLIElement {
    this.empty.remove();
    return h('li', {}, content);
  }

  private item(content: HTMLElement): HTMLLIElement {
    const item = this.wrap(content);
    this.element.append(item);
    return item;
  }
}
