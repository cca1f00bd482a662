/**
 * The message box under the log: posts what the user writes to the thread (Ctrl+Enter or Send),
 * says when the message was queued behind a running step, and leaves the text in place when the
 * post fails so nothing written is lost.
 */
import { type Api, describeError } from './api.js';
import { h } from './dom.js';

export class Composer {
  readonly element: HTMLFormElement;
  private readonly message = h('textarea', { id: 'message', name: 'content', rows: 3, required: true });
  private readonly note = h('p', { role: 'status', class: 'muted small' });
  private readonly send = h('button', { type: 'submit', class: 'primary' }, 'Send');

  constructor(
    private readonly api: Api,
    private readonly id: string,
    private readonly showError: (text: string) => void,
  ) {
    this.element = h(
      'form',
      { class: 'composer', 'aria-label': 'Post a message' },
      h('label', { for: 'message' }, 'Message'),
      this.message,
      h('div', { class: 'actions' }, h('span', { class: 'muted small' }, 'Ctrl+Enter sends'), this.send),
      this.note,
    );
    this.message.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) this.element.requestSubmit();
    });
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.post();
    });
  }

  private async post(): Promise<void> {
    const content = this.message.value.trim();
    if (!content) return;
    this.send.disabled = true;
    this.note.textContent = '';
    try {
      const answer = await this.api.client.messages.post(this.id, { content });
      this.message.value = '';
      this.note.textContent = answer.queued ? 'Queued: it is sent when the current step ends.' : '';
    } catch (error) {
      this.showError(`Could not post the message: ${describeError(error)}`);
    } finally {
      this.send.disabled = false;
    }
  }
}
