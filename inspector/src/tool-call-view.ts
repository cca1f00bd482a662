/**
 * One tool call in the thread's log: its arguments, then whatever happens to it (progress, waits,
 * the result or error, timing, truncation, attachments). Frames replayed after its result change
 * nothing.
 */
import { badge, h, replace } from './dom.js';
import { bytes, duration, json, shortId, time } from './format.js';
import type { AttachmentRef, ToolEnvelope } from './types.js';

export interface LogActions {
  /** Downloads a file of this thread. */
  download(path: string): void;
  /** A call ended (live or as stored), with the arguments it was given: the todo panel follows `todo`. */
  callEnded?(name: string, args: unknown, status: 'success' | 'error'): void;
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

type CallState = 'called' | 'running' | 'waiting' | 'answered' | 'success' | 'error';

/** Who answered an approval, as the server records it. */
export interface ApprovalAuthor {
  subject: string;
  role: string;
}

/** One tool call: its arguments, then whatever happens to it. */
export class ToolCallView {
  readonly element: HTMLElement;
  /** A result was shown: replayed frames no longer change the call. */
  done = false;
  /** The arguments as last shown, handed on when the call ends. */
  private argsValue: unknown;
  private readonly state = h('span', { class: 'call-state', role: 'status' });
  private readonly timing = h('span', { class: 'muted timing' });
  private readonly args = h('pre', { class: 'json' });
  private readonly argsBox = h('details', { class: 'arguments' }, h('summary', {}, 'Arguments'), this.args);
  private readonly links = h('p', { class: 'small', hidden: true });
  private readonly approval = h('p', { class: 'small approval-author', hidden: true });
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
      this.approval,
      this.progress,
      this.result,
    );
    this.setState('called');
    if (calledAt !== null) this.timing.textContent = `called ${time(calledAt)}`;
  }

  /** Shown open unless long. */
  setArguments(value: unknown): void {
    this.argsValue = value;
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

  /** Who approved or refused the call: from the `answered` frame, or the stored result's metadata. */
  answeredBy(author: ApprovalAuthor, approved: boolean | null): void {
    const verb = approved === null ? 'Answered' : approved ? 'Approved' : 'Refused';
    replace(this.approval, `${verb} by `, h('strong', {}, author.subject), ` (${author.role}).`);
    this.approval.hidden = false;
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
    this.actions.callEnded?.(this.name, this.argsValue, status);
    const metadata = envelope?.metadata;
    const took = metadata?.duration_ms ?? (this.startedAt === null ? null : Date.now() - this.startedAt);
    if (took !== null) this.timing.textContent = `took ${duration(took)}`;

    if (metadata?.progress?.length && this.progress.childElementCount === 0) {
      for (const event of metadata.progress) this.progressItem(event);
    }
    const shown =
      envelope?.type === 'output'
        ? json(
            metadata?.truncated ? ((envelope.data as { head?: unknown } | null)?.head ?? envelope.data) : envelope.data,
          )
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
