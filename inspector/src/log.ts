/**
 * The live log of a thread: its messages as they are stored and as they stream in (text deltas),
 * and each tool call with its arguments, progress, waits, result, status, timing and truncation.
 * Frames replayed for what is already shown change nothing.
 */
import { badge, h, replace } from './dom.js';
import { bytes, duration, json, parseArguments, shortId, time } from './format.js';
import type { AttachmentRef, Message, ToolEnvelope } from './types.js';

export interface LogActions {
  /** Downloads a file of this thread. */
  download(path: string): void;
}

/** A link that downloads a thread file through the API (the key cannot ride on a plain link). */
export function downloadLink(actions: LogActions, path: string, text: string = path): HTMLAnchorElement {
  const link = h('a', { href: '#', class: 'download', title: `Download ${path}` }, text);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    actions.download(path);
  });
  return link;
}

const ROLE_LABEL: Record<Message['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

type CallState = 'called' | 'running' | 'waiting' | 'answered' | 'success' | 'error';

/** One tool call: its arguments, then whatever happens to it. */
class ToolCallView {
  readonly element: HTMLElement;
  /** A result was shown: replayed frames no longer change the call. */
  done = false;
  private readonly state = h('span', { class: 'call-state', role: 'status' });
  private readonly timing = h('span', { class: 'muted timing' });
  private readonly args = h('pre', { class: 'json' });
  private readonly argsBox = h('details', { class: 'arguments' }, h('summary', {}, 'Arguments'), this.args);
  private readonly links = h('p', { class: 'small', hidden: true });
  private readonly progress = h('ol', { class: 'progress', 'aria-label': 'Progress events', hidden: true });
  private readonly result = h('section', { class: 'result', 'aria-label': 'Result', hidden: true });
  private startedAt: number | null = null;

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly actions: LogActions,
    calledAt: number | null,
  ) {
    this.element = h(
      'article',
      { class: 'tool-call', 'aria-label': `Tool call ${name}`, 'data-call-id': id },
      h(
        'header',
        {},
        h('span', { class: 'tool-icon', 'aria-hidden': 'true' }, '⚙'),
        h('strong', { class: 'tool-name' }, name),
        this.state,
        this.timing,
      ),
      this.argsBox,
      this.links,
      this.progress,
      this.result,
    );
    this.setState('called');
    if (calledAt !== null) this.timing.textContent = `called ${time(calledAt)}`;
  }

  /** Shown open unless long. */
  setArguments(value: unknown): void {
    const text = json(value);
    this.args.textContent = text;
    this.argsBox.open = text.split('\n').length <= 12;
  }

  /** The child thread a subagent call runs in. */
  linkChild(childId: string): void {
    replace(this.links, 'Runs in ', h('a', { href: `#/threads/${childId}` }, `child thread ${shortId(childId)}`), '.');
    this.links.hidden = false;
  }

  setState(state: CallState, detail?: string): void {
    this.element.dataset.state = state;
    replace(this.state, badge(detail ? `${state}: ${detail}` : state, state));
  }

  started(args: unknown): void {
    if (this.done) return;
    this.startedAt = Date.now();
    if (args !== undefined) this.setArguments(args);
    this.setState('running');
  }

  addProgress(event: unknown): void {
    if (!this.done) this.progressItem(event);
  }

  waiting(kind: string): void {
    if (this.done) return;
    this.setState('waiting', kind);
  }

  answered(kind: string): void {
    if (this.done) return;
    this.setState('answered', kind);
  }

  /** The call ended: from its `tool_result` frame or its stored tool message. */
  finish(
    status: 'success' | 'error',
    envelope: ToolEnvelope | null,
    content: string | null,
    attachments?: AttachmentRef[] | null,
  ) {
    this.done = true;
    this.setState(status);
    const metadata = envelope?.metadata;
    const took = metadata?.duration_ms ?? (this.startedAt === null ? null : Date.now() - this.startedAt);
    if (took !== null) this.timing.textContent = `took ${duration(took)}`;

    if (metadata?.progress?.length && this.progress.childElementCount === 0) {
      for (const event of metadata.progress) this.progressItem(event);
    }
    const shown =
      envelope?.type === 'output'
        ? json(envelope.data)
        : envelope?.type === 'error'
          ? envelope.error_text
          : (content ?? '');
    const notes: HTMLElement[] = [];
    if (metadata?.truncated) {
      notes.push(
        h(
          'p',
          { class: 'note' },
          h('strong', {}, 'Output truncated.'),
          metadata.output_path
            ? [' The full output is in ', downloadLink(this.actions, metadata.output_path), '.']
            : ' The model saw only the part shown.',
        ),
      );
    }
    const files = attachments?.length
      ? h(
          'ul',
          { class: 'attachments', 'aria-label': 'Attachments' },
          attachments.map((file) =>
            h('li', {}, downloadLink(this.actions, file.path, file.name), ` ${file.mimeType}, ${bytes(file.size)}`),
          ),
        )
      : null;
    replace(
      this.result,
      h('h4', {}, status === 'error' ? 'Error' : 'Result'),
      h('pre', { class: status === 'error' ? 'json error-text' : 'json' }, shown),
      notes,
      files,
    );
    this.result.hidden = false;
  }

  private progressItem(event: unknown): void {
    this.progress.hidden = false;
    this.progress.append(h('li', {}, h('pre', { class: 'json' }, json(event))));
  }
}

interface MessageEntry {
  item: HTMLLIElement;
  time: HTMLTimeElement;
  text: HTMLElement;
  calls: HTMLElement;
  /** The stored message arrived: deltas replayed for it change nothing. */
  complete: boolean;
}

export class LogView {
  readonly element = h('ol', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Thread log' });
  private readonly messages = new Map<string, MessageEntry>();
  private readonly calls = new Map<string, ToolCallView>();
  private readonly empty = h('li', { class: 'muted empty' }, 'No messages yet.');

  constructor(private readonly actions: LogActions) {
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
    entry.complete = true;
    entry.item.classList.remove('streaming');
    entry.time.dateTime = new Date(message.created_at).toISOString();
    entry.time.textContent = time(message.created_at);
    entry.text.textContent = message.content ?? '';
    entry.text.hidden = !message.content;
    for (const call of message.tool_calls ?? []) {
      if (this.calls.has(call.id)) continue;
      const view = new ToolCallView(call.id, call.function.name, this.actions, message.created_at);
      view.setArguments(parseArguments(call.function.arguments));
      this.calls.set(call.id, view);
      entry.calls.append(view.element);
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

  answered(id: string, kind: string): void {
    this.calls.get(id)?.answered(kind);
  }

  /** A turn failed or hit a limit. */
  error(code: string, message: string): void {
    this.item(
      h(
        'article',
        { class: 'entry entry-error', role: 'alert', 'aria-label': `Error ${code}` },
        h('header', {}, h('strong', {}, 'Error'), ' ', h('code', {}, code)),
        h('p', {}, message),
      ),
    );
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
    );
    const item = this.item(article);
    if (depth > 0) item.style.marginInlineStart = `${Math.min(depth, 4) * 1.5}rem`;
    const entry: MessageEntry = { item, time: stamp, text, calls, complete: false };
    this.messages.set(id, entry);
    return entry;
  }

  private item(content: HTMLElement): HTMLLIElement {
    this.empty.remove();
    const item = h('li', {}, content);
    this.element.append(item);
    return item;
  }
}
