/**
 * The message box under the log: posts what the user writes to the thread (Ctrl+Enter or Send),
 * says when the message was queued behind a running step, and leaves the text in place when the
 * post fails so nothing written is lost. "If busy" picks what the message does when a turn is
 * running (`on_busy`); left at the agent's default, none is sent.
 */
import { type Api, describeError } from './api.js';
import { h } from './dom.js';

type OnBusyChoice = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

export class Composer {
  readonly element: HTMLFormElement;
  private readonly message = h('textarea', { id: 'message', name: 'content', rows: 3, required: true });
  private readonly note = h('p', { role: 'status', class: 'muted small' });
  private readonly send = h('button', { type: 'submit', class: 'primary' }, 'Send');
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
    private readonly showError: (text: string) => void,
  ) {
    this.element = h(
      'form',
      { class: 'composer', 'aria-label': 'Post a message' },
      h('label', { for: 'message' }, 'Message'),
      this.message,
      h(
        'div',
        { class: 'actions' },
        h('span', { class: 'muted small' }, 'Ctrl+Enter sends'),
        h('label', { for: 'on-busy', class: 'muted small' }, 'If busy'),
        this.onBusy,
        this.send,
      ),
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
      const onBusy = this.onBusy.value as OnBusyChoice | '';
      const answer = await this.api.client.messages.post(this.id, { content, ...(onBusy ? { on_busy: onBusy } : {}) });
      this.message.value = '';
      this.note.textContent = answer.queued ? 'Queued: it is sent when the current step ends.' : '';
    } catch (error) {
      this.showError(`Could not post the message: ${describeError(error)}`);
    } finally {
      this.send.disabled = false;
    }
  }
}
