/**
 * The message box under the log: posts what the user writes to the thread (Ctrl+Enter or Send),
 * with the files attached to it (attach-files.ts; sent as multipart, a JSON body otherwise), says
 * when the message was queued behind a running step, and leaves the text and the files in place
 * when the post fails so nothing written or chosen is lost. "If busy" picks what the message does
 * when a turn is running (`on_busy`); left at the agent's default, none is sent.
 *
 * Editing a user message (the log's Edit) fills the box with that message's text and files; Send
 * then sends it in place of the original in a new thread (the original thread stays as it is) and
 * opens that thread; Cancel edit puts back what the box held. The edit route reads JSON only, so an
 * edited message's files travel as base64 parts, within the API's 1 MiB JSON body.
 */
import { type Api, type ContentPart, describeError, type OnBusy } from './api.js';
import { AttachedFiles } from './attach-files.js';
import { h, replace } from './dom.js';
import { leaveNote } from './fork-notes.js';
import { givenName, shortId } from './format.js';
import type { Message } from './types.js';

/** What the composer hands back to its screen. */
export interface ComposerHooks {
  showError(text: string): void;
  /** A new thread was made (an edited message sent): it is opened. */
  openThread(id: string): void;
}

export class Composer {
  readonly element: HTMLFormElement;
  private readonly message = h('textarea', { id: 'message', name: 'content', rows: 3 });
  private readonly note = h('p', { role: 'status', class: 'muted small' });
  private readonly send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  private readonly files = new AttachedFiles();
  private readonly editing = h('p', { class: 'note editing', hidden: true });
  /** The user message being edited, while the box holds its replacement. */
  private edited: Message | null = null;
  /** What the box held when editing began. */
  private draft: { text: string; files: File[] } = { text: '', files: [] };
  private readonly onBusy = h(
    'select',
    { id: 'on-busy', name: 'on_busy' },
    h('option', { value: '' }, "agent's default"),
    h('option', { value: 'enqueue' }, 'wait for the turn'),
    h('option', { value: 'reject' }, 'refuse'),
    h('option', { value: 'interrupt' }, 'interrupt the turn'),
    h('option', { value: 'rollback' }, 'undo the turn'),
  );

  constructor(
    private readonly api: Api,
    private readonly id: string,
    private readonly hooks: ComposerHooks,
  ) {
    this.element = h(
      'form',
      { class: 'composer', 'aria-label': 'Post a message' },
      this.editing,
      h('label', { for: 'message' }, 'Message'),
      this.message,
      this.files.chips,
      h(
        'div',
        { class: 'actions' },
        this.files.button,
        this.files.input,
        h('span', { class: 'muted small' }, 'Ctrl+Enter sends'),
        h('label', { for: 'on-busy', class: 'muted small' }, 'If busy'),
        this.onBusy,
        this.send,
      ),
      this.note,
    );
    this.files.acceptDrops(this.element);
    this.files.acceptPastes(this.message);
    this.message.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) this.element.requestSubmit();
    });
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void (this.edited ? this.sendEdit(this.edited) : this.post());
    });
  }

  /** Fills the box with a user message's text and files, to send in its place in a new thread. */
  async edit(original: Message): Promise<void> {
    // What the box held before the first edit comes back when editing is cancelled.
    if (!this.edited) this.draft = { text: this.message.value, files: [...this.files.files] };
    this.edited = original;
    this.message.value = original.content ?? '';
    this.files.clear();
    const cancel = h('button', { type: 'button', class: 'small', onclick: () => this.stopEditing() }, 'Cancel edit');
    replace(
      this.editing,
      h('strong', {}, 'Editing message '),
      h('code', {}, shortId(original.id)),
      ': Send makes a new thread with this message in its place; this thread stays as it is. ',
      cancel,
    );
    this.editing.hidden = false;
    this.send.textContent = 'Send as a new thread';
    this.message.focus();
    // The original's files come along, to keep or remove like any other.
    try {
      const files = await Promise.all(
        (original.attachments ?? []).map(
          async (file) =>
            new File([await this.api.blob(this.id, file.path)], givenName(file.name), { type: file.mimeType }),
        ),
      );
      if (this.edited === original) this.files.add(files);
    } catch (error) {
      this.hooks.showError(`Could not read the message's files: ${describeError(error)}`);
    }
  }

  /** Ends editing; the box gets back what it held before, or is left empty once the edit was sent. */
  private stopEditing(restore = true): void {
    this.edited = null;
    this.editing.hidden = true;
    this.send.textContent = 'Send';
    this.message.value = restore ? this.draft.text : '';
    this.files.clear();
    if (restore) this.files.add(this.draft.files);
    this.draft = { text: '', files: [] };
  }

  private async post(): Promise<void> {
    const content = this.message.value.trim();
    const files = [...this.files.files];
    if (!content && files.length === 0) return;
    await this.sending('Could not post the message', async () => {
      const onBusy = this.onBusy.value as OnBusy | '';
      const answer =
        files.length > 0
          ? await this.api.postWithFiles(this.id, content, files, onBusy)
          : await this.api.client.messages.post(this.id, { content, ...(onBusy ? { on_busy: onBusy } : {}) });
      this.message.value = '';
      this.files.clear();
      this.note.textContent = answer.queued ? 'Queued: it is sent when the current step ends.' : '';
    });
  }

  /** The edited message goes to a new thread, JSON with its files in base64 (the edit route reads JSON). */
  private async sendEdit(original: Message): Promise<void> {
    const text = this.message.value.trim();
    const files = [...this.files.files];
    if (!text && files.length === 0) return;
    await this.sending('Could not send the edited message', async () => {
      const content: string | ContentPart[] =
        files.length === 0
          ? text
          : [...(text ? [{ type: 'text' as const, text }] : []), ...(await Promise.all(files.map(filePart)))];
      const answer = await this.api.client.messages.edit(this.id, original.id, { content });
      leaveNote(answer);
      this.stopEditing(false);
      this.hooks.openThread(answer.thread.id);
    });
  }

  /** Runs a send with the button disabled; a failure is shown and the box keeps what it held. */
  private async sending(what: string, run: () => Promise<void>): Promise<void> {
    this.send.disabled = true;
    this.note.textContent = '';
    try {
      await run();
    } catch (error) {
      this.hooks.showError(`${what}: ${describeError(error)}`);
    } finally {
      this.send.disabled = false;
    }
  }
}

/** A file as a JSON content part: an image part for images, a file part otherwise. */
async function filePart(file: File): Promise<ContentPart> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  const data = url.slice(url.indexOf(',') + 1);
  const mimeType = file.type || 'application/octet-stream';
  return { type: mimeType.startsWith('image/') ? 'image' : 'file', data, mime_type: mimeType, name: file.name };
}
