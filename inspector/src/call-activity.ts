/**
 * Calls in progress on the thread screen: a tool call's arguments as the model types them (a
 * `write`'s content, a `run_code` program) and, for a call running past 30 s, how long it has run
 * of its timeout. A panel right after the log holds one row per such call until the message that
 * holds the call or its result arrives (the client's `nextCallActivity` decides). Whatever a model
 * writes is shown as text, never as markup.
 */
import { type CallActivity, nextCallActivity, noCallActivity } from '../../client/index.js';
import { activityRows } from './call-activity-rows.js';
import { h, replace } from './dom.js';
import type { Frame } from './types.js';

class CallActivityPanel {
  private activity: CallActivity = noCallActivity;
  private readonly list = h('ul', { class: 'call-activity-list' });
  readonly element = h(
    'section',
    { class: 'card call-activity', 'aria-label': 'Calls in progress', 'aria-live': 'polite', hidden: true },
    this.list,
  );

  see(frame: Frame): void {
    const next = nextCallActivity(this.activity, frame);
    if (next === this.activity) return;
    this.activity = next;
    const rows = activityRows(next);
    this.element.hidden = rows.length === 0;
    replace(
      this.list,
      rows.map((row) =>
        h(
          'li',
          { 'data-call-id': row.id, 'data-activity': row.kind },
          h('strong', {}, row.title),
          row.kind === 'typing' ? h('pre', { class: 'json' }, row.detail) : h('p', { class: 'muted' }, row.detail),
        ),
      ),
    );
  }
}

const panels = new WeakMap<HTMLElement, CallActivityPanel>();

/** Hands a frame to the panel of the screen whose log is `log`, made and placed after it at first use. */
export function showCallActivity(frame: Frame, log: HTMLElement): void {
  let panel = panels.get(log);
  if (!panel) {
    panel = new CallActivityPanel();
    panels.set(log, panel);
  }
  if (!panel.element.isConnected && log.parentNode) log.after(panel.element);
  panel.see(frame);
}
