/**
 * Webhooks end to end (WH-1, WH-3): a real `wrangler dev` with a local receiver
 * (harness/webhook-receiver.mjs) named in EGRESS_ALLOW_HOSTS, the development allow-list. An endpoint
 * registered with `POST /api/webhooks` receives a turn's `turn.completed` and a question's
 * `wait.opened`, each signed, and each verifies with the `standardwebhooks` package as a receiver
 * would check it.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { type ReceivedWebhook, startWebhookReceiver } from '../../harness/webhook-receiver.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const KEY = 'webhooks-e2e-key';

let model: OpenAIServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dev: WranglerDev | undefined;

beforeAll(async () => {
  model = await startOpenAIServer();
  receiver = await startWebhookReceiver();
  dev = await startWranglerDev({
    vars: {
      API_KEYS: KEY,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'x',
      MODEL: 'fake-model',
      EGRESS_ALLOW_HOSTS: new URL(receiver.url).host,
    },
  });
});

afterAll(async () => {
  await dev?.stop();
  await model?.close();
  await receiver?.close();
});

/** What the receiver has for `name` once it holds `count` requests (a deadline, not a sleep). */
async function receivedBy(name: string, count: number, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.received(name).length < count) {
    if (Date.now() > deadline) throw new Error(`${name} received ${receiver.received(name).length}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return receiver.received(name);
}

describe('webhooks under wrangler dev', () => {
  it('a turn.completed and a wait.opened arrive signed and verify with standardwebhooks', async () => {
    const api = new ApiClient(String(dev?.url), KEY);
    const name = `e2e-${crypto.randomUUID()}`;
    const webhook = await api.json<{ id: string; secret: string }>(
      '/api/webhooks',
      { method: 'POST', json: { url: `${receiver.url}/hooks/${name}`, events: ['turn.completed', 'wait.opened'] } },
      201,
    );
    const verifier = new Webhook(webhook.secret);

    model.enqueue({ text: 'All done.' });
    const answered = await api.createThread({ agent: 'workspace', messages: [{ role: 'user', content: 'Hello' }] });
    const [completed] = await receivedBy(name, 1);
    const turn = verifier.verify(String(completed?.body), completed?.headers ?? {}) as Record<string, unknown>;
    expect(turn).toMatchObject({
      type: 'turn.completed',
      data: { thread_id: answered.id, agent: 'workspace', last_message: { content: 'All done.' } },
    });
    expect(completed?.headers['webhook-id']).toMatch(/^msg_/);

    const questions = [{ question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] }];
    model.enqueue({ toolCalls: [{ name: 'question', arguments: JSON.stringify({ questions }) }] });
    const asking = await api.createThread({ agent: 'workspace', messages: [{ role: 'user', content: 'Ask me' }] });
    const [, opened] = await receivedBy(name, 2);
    const wait = verifier.verify(String(opened?.body), opened?.headers ?? {}) as Record<string, unknown>;
    expect(wait).toMatchObject({
      type: 'wait.opened',
      data: {
        thread_id: asking.id,
        kind: 'question',
        tool_name: 'question',
        payload: { questions: [{ question: 'Which colour?' }] },
      },
    });
    // The endpoint's deliveries list both, delivered at the first attempt.
    const page = await api.json<{ deliveries: { type: string; status: string; attempts: unknown[] }[] }>(
      `/api/webhooks/${webhook.id}/deliveries`,
    );
    expect(page.deliveries.map((delivery) => [delivery.type, delivery.status, delivery.attempts.length])).toEqual([
      ['wait.opened', 'delivered', 1],
      ['turn.completed', 'delivered', 1],
    ]);
  });
});
