/**
 * The thread screen's alerts: what went wrong on the page (a request refused, the live log lost),
 * each with its own Dismiss button, kept until the user dismisses it.
 */
import { type Child, h } from './dom.js';

export class AlertList {
  readonly element = h('div', { role: 'alert', class: 'alerts' });

  /** Shows an alert: its text, and any links or buttons that act on it. */
  show(...content: Child[]): HTMLElement {
    const dismiss = h('button', { type: 'button', class: 'small' }, 'Dismiss');
    const alert = h('p', { class: 'form-error' }, content, ' ', dismiss);
    dismiss.addEventListener('click', () => alert.remove());
    this.element.append(alert);
    return alert;
  }
}
