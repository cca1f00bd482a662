/**
 * The Webhooks page (`#/webhooks`): the endpoints this key sees (an admin: the tenant's), whether
 * each is enabled and why not, and under each its newest deliveries with their status, last status
 * and every attempt, each with a Replay button that sends it again with the same id and body.
 */
import type { Webhook, WebhookDelivery } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { dateTime, duration, json } from './format.js';
import type { Screen } from './thread-view.js';

/** Deliveries shown under each endpoint: the newest. */
const DELIVERIES_SHOWN = 20;

function attemptText(attempt: WebhookDelivery['attempts'][number]): string {
  const answer = attempt.status_code === null ? 'no answer' : `HTTP ${attempt.status_code}`;
  const why = attempt.error ? ` — ${attempt.error}` : '';
  return `${dateTime(attempt.at)}: ${answer} in ${duration(attempt.duration_ms)}${why}`;
}

function payloadView(payload: string): HTMLElement {
  let shown = payload;
  try {
    shown = json(JSON.parse(payload));
  } catch {
    // Shown as sent.
  }
  return h('details', {}, h('summary', {}, 'Payload'), h('pre', { class: 'payload' }, shown));
}

class WebhookCard {
  readonly element: HTMLElement;
  private readonly deliveries = h('ul', { class: 'deliveries', 'aria-label': 'Deliveries' });
  private readonly status = h('p', { role: 'status', class: 'muted' });

  constructor(
    private readonly api: Api,
    private readonly webhook: Webhook,
  ) {
    const state = webhook.enabled ? badge('enabled', 'success') : badge('disabled', 'error');
    this.element = h(
      'section',
      { class: 'card webhook', 'data-webhook': webhook.id, 'aria-label': `Webhook ${webhook.url}` },
      h('div', { class: 'section-head' }, h('h2', {}, h('code', {}, webhook.url)), state),
      h(
        'p',
        { class: 'muted' },
        `${webhook.events.join(', ')} · hears ${webhook.scope === 'thread' ? `thread ${webhook.thread_id}` : webhook.scope === 'owner' ? 'its maker’s threads' : 'the whole tenant'}`,
        ` · ${webhook.consecutive_failures} failed attempts in a row`,
      ),
      webhook.disabled_reason ? h('p', { class: 'disabled-reason' }, webhook.disabled_reason) : null,
      this.status,
      this.deliveries,
    );
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const page = await this.api.client.webhooks.deliveries(this.webhook.id, { limit: DELIVERIES_SHOWN });
      replace(this.deliveries, ...page.deliveries.map((delivery) => this.row(delivery)));
      this.status.textContent = page.deliveries.length === 0 ? 'No deliveries yet.' : '';
    } catch (error) {
      this.status.textContent = `Could not list deliveries: ${describeError(error)}`;
    }
  }

  private row(delivery: WebhookDelivery): HTMLElement {
    const last =
      delivery.last_status === null ? (delivery.last_error ?? 'not tried yet') : `HTTP ${delivery.last_status}`;
    const replay = h('button', { type: 'button', class: 'small' }, 'Replay');
    replay.addEventListener('click', () => void this.replay(delivery, replay));
    return h(
      'li',
      { class: `delivery delivery-${delivery.status}`, 'data-delivery': delivery.id },
      h(
        'div',
        { class: 'delivery-head' },
        h('strong', {}, delivery.type),
        ' ',
        badge(
          delivery.status,
          delivery.status === 'delivered' ? 'success' : delivery.status === 'failed' ? 'error' : 'waiting',
        ),
        ` last: ${last} · ${dateTime(delivery.created_at)} · `,
        h('code', {}, delivery.id),
        ' ',
        replay,
      ),
      h(
        'ol',
        { class: 'attempts', 'aria-label': 'Attempts' },
        delivery.attempts.map((attempt) => h('li', {}, attemptText(attempt))),
      ),
      payloadView(delivery.payload),
    );
  }

  private async replay(delivery: WebhookDelivery, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      await this.api.client.webhooks.replay(this.webhook.id, delivery.id);
      await this.load();
    } catch (error) {
      this.status.textContent = `Could not replay: ${describeError(error)}`;
      button.disabled = false;
    }
  }
}

export function webhooksScreen(api: Api): Screen {
  const list = h('div', { class: 'webhook-list' });
  const status = h('p', { role: 'status', class: 'muted' });
  const load = async () => {
    try {
      const webhooks = await api.client.webhooks.list();
      replace(list, ...webhooks.map((webhook) => new WebhookCard(api, webhook).element));
      status.textContent = webhooks.length === 0 ? 'No webhooks: register one with POST /api/webhooks.' : '';
    } catch (error) {
      status.textContent = `Could not list webhooks: ${describeError(error)}`;
    }
  };
  void load();
  const element = h(
    'div',
    { class: 'webhooks-screen' },
    h(
      'div',
      { class: 'section-head' },
      h('h1', {}, 'Webhooks'),
      h('button', { type: 'button', onclick: () => void load() }, 'Refresh'),
    ),
    status,
    list,
  );
  return { element, dispose: () => undefined };
}
