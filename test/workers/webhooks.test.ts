/**
 * Webhooks through HTTP, in workerd (WH-1..WH-8): endpoints registered with `POST /api/webhooks` or
 * given when a thread starts, deliveries received by a local receiver (harness/webhook-receiver.mjs
 * on the services server) and verified there with the `standardwebhooks` package, retries driven by
 * calling the Tenant object's delivery run with its clock moved (nothing here sleeps), refusals of
 * inward and non-https URLs and unknown events, 4xx not retried, disabling after the limit, replay,
 * and no secret value in any payload. Each test has a tenant of its own.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { describe, expect, inject, it } from 'vitest';
import type { Tenant } from '../../src/thread/tenancy/index.js';
import { api, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { inwardNames, refusedUrls, WEBHOOK_EVENT_FORGERIES, webhookUrlForgeries } from '../support/hostile-corpus.js';
import { ADMIN_KEY, adminEnv, call } from '../support/worker-calls.js';

interface Received {
  headers: Record<string, string>;
  body: string;
  answer: string;
}

interface Delivery {
  id: string;
  type: string;
  status: string;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  attempts: { at: number; status_code: number | null; error: string | null; duration_ms: number }[];
  payload: string;
}

const services = () => String(inject('servicesUrl'));

/** A fresh tenant and a key of it with `role`, issued by the bootstrap admin. */
async function keyIn(tenant: string, role = 'admin'): Promise<string> {
  const response = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role } });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

async function newTenant(role = 'admin'): Promise<{ tenant: string; key: string }> {
  const tenant = `wh-${crypto.randomUUID().slice(0, 8)}`;
  return { tenant, key: await keyIn(tenant, role) };
}

/** A receiver name of its own and its URL, answering by `plan` (e.g. `500,drop,200`). */
function endpoint(plan = ''): { name: string; url: string } {
  const name = crypto.randomUUID();
  return { name, url: `${services()}/hooks/${name}${plan ? `?plan=${plan}` : ''}` };
}

async function received(name: string): Promise<Received[]> {
  return (await (await fetch(`${services()}/hooks-received/${name}`)).json()) as Received[];
}

async function receivedAtLeast(name: string, count: number): Promise<Received[]> {
  return until(
    () => received(name),
    (list) => list.length >= count,
  );
}

async function register(key: string, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const response = await api('/api/webhooks', { method: 'POST', json: { url, events }, key });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

async function deliveries(key: string, webhookId: string): Promise<Delivery[]> {
  const response = await api(`/api/webhooks/${webhookId}/deliveries`, { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: Delivery[] }).deliveries;
}

/**
 * The tenant's object runs the deliveries due at a clock moved `hours` ahead; each call moves it
 * further, past the longest wait of the schedule (10 h, 20 % jitter).
 */
function clock(tenant: string) {
  let hours = 0;
  const stub = env.TENANTS?.get(env.TENANTS.idFromName(tenant));
  if (!stub) throw new Error('the test Worker has a TENANTS binding');
  return async (step = 12.5) => {
    hours += step;
    const now = Date.now() + hours * 3_600_000;
    await runInDurableObject(stub, (instance) => (instance as unknown as Tenant).deliverWebhooks(now));
  };
}

/** The request verifies with the endpoint's secret; answers the parsed payload. */
function verified(
  secret: string,
  request: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

async function startThread(key: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await api('/api/threads', { method: 'POST', json: body, key });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Record<string, unknown>;
}

describe('webhook registrations (WH-2, WH-5)', () => {
  it('refuses inward, non-https and malformed URLs (400 invalid_url) and unknown events (400 invalid_events); nothing is registered', async () => {
    const { key } = await newTenant();
    // A port no allow-list entry names (the services server's own is a development host).
    const refusedPort = Number(new URL(String(inject('intranetUrl'))).port);
    const urls = [
      ...refusedUrls(refusedPort, '/hooks'),
      ...inwardNames(refusedPort, '/hooks'),
      ...webhookUrlForgeries(refusedPort),
      // The intranet server of global-setup: a local address no allow-list names.
      { label: 'intranet', url: `${String(inject('intranetUrl'))}/hooks` },
    ];
    for (const { label, url } of urls) {
      const response = await api('/api/webhooks', { method: 'POST', json: { url, events: ['turn.completed'] }, key });
      expect(response.status, label).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, label).toBe('invalid_url');
    }
    for (const { label, events } of WEBHOOK_EVENT_FORGERIES) {
      const response = await api('/api/webhooks', { method: 'POST', json: { url: endpoint().url, events }, key });
      expect(response.status, label).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, label).toBe('invalid_events');
    }
    const listed = (await (await api('/api/webhooks', { key })).json()) as { webhooks: unknown[] };
    expect(listed.webhooks).toEqual([]);
    // The same refusals in POST /api/threads: no thread is started.
    const before = (await (await api('/api/threads', { key })).json()) as { threads: unknown[] };
    const refused = await api('/api/threads', {
      method: 'POST',
      json: { agent: 'general', webhooks: [{ url: 'http://10.0.0.1/hooks', events: ['turn.completed'] }] },
      key,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_url' } });
    const unknownEvent = await api('/api/threads', {
      method: 'POST',
      json: { agent: 'general', webhooks: [{ url: endpoint().url, events: ['turn.started'] }] },
      key,
    });
    expect(await unknownEvent.json()).toMatchObject({ error: { code: 'invalid_events' } });
    const after = (await (await api('/api/threads', { key })).json()) as { threads: unknown[] };
    expect(after.threads.length).toBe(before.threads.length);
  });

  it("one person makes at most 100 endpoints (409 too_many_webhooks); the tenant's admin still can", async () => {
    const { tenant, key: admin } = await newTenant();
    const member = await keyIn(tenant, 'member');
    const url = endpoint().url;
    await Promise.all(Array.from({ length: 100 }, () => register(member, url, ['turn.failed'])));
    const refused = await api('/api/webhooks', { method: 'POST', json: { url, events: ['turn.failed'] }, key: member });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_many_webhooks' } });
    await register(admin, url, ['turn.failed']);
  });

  it('answers 501 not_configured without the TENANTS binding', async () => {
    const bindings = { ...adminEnv, TENANTS: undefined };
    const listed = await call('/api/webhooks', 'test-key-alice', {}, bindings);
    expect(listed.status).toBe(501);
    expect(await listed.json()).toMatchObject({ error: { code: 'not_configured' } });
    const started = await call(
      '/api/threads',
      'test-key-alice',
      { method: 'POST', json: { agent: 'general', webhooks: [{ url: endpoint().url, events: ['thread.created'] }] } },
      bindings,
    );
    expect(started.status).toBe(501);
  });

  it("a member's endpoint hears only its own threads and is not seen by others; an admin's hears the tenant", async () => {
    const { tenant, key: admin } = await newTenant();
    const [alice, bob] = [await keyIn(tenant, 'member'), await keyIn(tenant, 'member')];
    const mine = endpoint();
    const all = endpoint();
    const own = await register(alice, mine.url, ['thread.created']);
    await register(admin, all.url, ['thread.created']);
    expect((await api(`/api/webhooks/${own.id}`, { key: bob })).status).toBe(404);
    expect((await api(`/api/webhooks/${own.id}`, { method: 'DELETE', key: bob })).status).toBe(404);
    expect(((await (await api('/api/webhooks', { key: bob })).json()) as { webhooks: unknown[] }).webhooks).toEqual([]);
    const fromBob = (await startThread(bob, { agent: 'general' })).id;
    const fromAlice = (await startThread(alice, { agent: 'general' })).id;
    const heardByAll = await receivedAtLeast(all.name, 2);
    expect(heardByAll.map((request) => JSON.parse(request.body).data.thread_id).sort()).toEqual(
      [fromBob, fromAlice].sort(),
    );
    const heardByAlice = await receivedAtLeast(mine.name, 1);
    expect(heardByAlice.map((request) => verified(own.secret, request).data.thread_id)).toEqual([fromAlice]);
  });
});

describe('webhook deliveries (WH-1, WH-3, WH-4)', () => {
  it("a thread's own endpoint gets thread.created and turn.completed, signed and verified with standardwebhooks, once each", async () => {
    const { tenant, key } = await newTenant();
    const hook = endpoint();
    const started = await startThread(key, {
      agent: 'general',
      messages: [{ role: 'user', content: 'hello there' }],
      webhooks: [{ url: hook.url, events: ['thread.created', 'turn.completed'] }],
    });
    const [created] = started.webhooks as { id: string; secret: string; scope: string; thread_id: string }[];
    expect(created?.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({ scope: 'thread', thread_id: started.id });
    await settled(String(started.id), key);
    const requests = await receivedAtLeast(hook.name, 2);
    const payloads = requests.map((request) => verified(String(created?.secret), request));
    expect(payloads.map((payload) => payload.type)).toEqual(['thread.created', 'turn.completed']);
    expect(payloads[1]?.data).toMatchObject({
      thread_id: started.id,
      agent: 'general',
      reason: 'response',
      last_message: { content: 'echo: hello there', truncated: false },
    });
    expect(new Date(String(payloads[0]?.timestamp)).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // A forged or altered body does not verify.
    const forged = { ...requests[1], body: requests[1]?.body.replace('hello', 'HELLO') } as Received;
    expect(() => verified(String(created?.secret), forged)).toThrow();
    // Every later run of the outbox sends nothing more: delivered once each.
    const run = clock(tenant);
    for (let index = 0; index < 3; index++) await run();
    expect((await received(hook.name)).length).toBe(2);
    const listed = await deliveries(key, String(created?.id));
    expect(listed.map((delivery) => [delivery.type, delivery.status, delivery.attempts.length])).toEqual([
      ['turn.completed', 'delivered', 1],
      ['thread.created', 'delivered', 1],
    ]); // Deleting the thread deletes its own endpoint.
    expect((await api(`/api/threads/${started.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await api(`/api/webhooks/${created?.id}`, { key })).status).toBe(404);
  });

  it('is retried after a 500 and after a dropped connection, with the same id and body, until it is taken', async () => {
    const { tenant, key } = await newTenant();
    const hook = endpoint('500,drop,200');
    const webhook = await register(key, hook.url, ['thread.created']);
    await startThread(key, { agent: 'general' });
    const run = clock(tenant);
    await receivedAtLeast(hook.name, 1);
    const [first] = await until(
      () => deliveries(key, webhook.id),
      (list) => list[0]?.attempts.length === 1,
    );
    expect(first).toMatchObject({ status: 'pending', last_status: 500 });
    await run();
    await run();
    const requests = await receivedAtLeast(hook.name, 3);
    expect(requests.map((request) => request.answer)).toEqual(['500', 'drop', '200']);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    for (const request of requests) verified(webhook.secret, request);
    const [delivery] = await deliveries(key, webhook.id);
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.id).toBe(requests[0]?.headers['webhook-id']);
    expect(delivery?.attempts.map((attempt) => attempt.status_code)).toEqual([500, null, 200]);
    expect(delivery?.attempts[1]?.error).toBeTruthy();
    await run();
    expect((await received(hook.name)).length).toBe(3);
  });

  it('is not retried after a 4xx other than 408 and 429; a redirect is not followed, so nothing reaches a private address', async () => {
    const { tenant, key } = await newTenant();
    const gone = endpoint('404');
    const busy = endpoint('429,200');
    const intranet = `${String(inject('intranetUrl'))}/webhook-target-${crypto.randomUUID()}`;
    const moved = endpoint(`redirect:${intranet}`);
    const hooks = await Promise.all([gone, busy, moved].map((hook) => register(key, hook.url, ['thread.created'])));
    await startThread(key, { agent: 'general' });
    for (const hook of [gone, busy, moved]) await receivedAtLeast(hook.name, 1);
    const run = clock(tenant);
    for (let index = 0; index < 8; index++) await run();
    expect((await received(gone.name)).map((request) => request.answer)).toEqual(['404']);
    expect((await received(busy.name)).map((request) => request.answer)).toEqual(['429', '200']);
    const [goneDelivery] = await deliveries(key, String(hooks[0]?.id));
    expect(goneDelivery).toMatchObject({ status: 'failed', last_status: 404, next_attempt_at: null });
    const [movedDelivery] = await deliveries(key, String(hooks[2]?.id));
    expect(movedDelivery?.attempts[0]).toMatchObject({ status_code: 302 });
    expect(movedDelivery?.attempts[0]?.error).toMatch(/redirects are not followed/);
    const intranetLog = (await (
      await fetch(`${services()}/web/requests?containing=webhook-target`)
    ).json()) as unknown[];
    expect(intranetLog).toEqual([]);
  });

  it('an endpoint failing 20 attempts in a row is disabled and says so; PATCH enabled re-enables it', async () => {
    const { tenant, key } = await newTenant();
    const hook = endpoint(Array(40).fill('500').join(','));
    const webhook = await register(key, hook.url, ['thread.created']);
    for (let index = 0; index < 3; index++) await startThread(key, { agent: 'general' });
    await receivedAtLeast(hook.name, 3);
    const run = clock(tenant);
    for (let index = 0; index < 8; index++) await run();
    expect((await received(hook.name)).length).toBe(20);
    const view = (await (await api(`/api/webhooks/${webhook.id}`, { key })).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ enabled: false, consecutive_failures: 20 });
    expect(String(view.disabled_reason)).toMatch(/20 failed attempts in a row/);
    const listed = await deliveries(key, webhook.id);
    expect(listed.every((delivery) => delivery.status === 'failed')).toBe(true);
    // Disabled: nothing new is sent, a replay is refused.
    await startThread(key, { agent: 'general' });
    await run();
    expect((await received(hook.name)).length).toBe(20);
    const replay = await api(`/api/webhooks/${webhook.id}/deliveries/${listed[0]?.id}/replay`, { method: 'POST', key });
    expect(replay.status).toBe(409);
    const enabled = await api(`/api/webhooks/${webhook.id}`, { method: 'PATCH', json: { enabled: true }, key });
    expect(await enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
  });

  it('a delivery is replayed with the same id and body', async () => {
    const { key } = await newTenant();
    const hook = endpoint();
    const webhook = await register(key, hook.url, ['thread.created']);
    await startThread(key, { agent: 'general' });
    const [first] = await receivedAtLeast(hook.name, 1);
    const [delivery] = await until(
      () => deliveries(key, webhook.id),
      (list) => list[0]?.status === 'delivered',
    );
    const response = await api(`/api/webhooks/${webhook.id}/deliveries/${delivery?.id}/replay`, {
      method: 'POST',
      key,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: delivery?.id, status: 'delivered' });
    const requests = await received(hook.name);
    expect(requests.length).toBe(2);
    expect(requests[1]?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(requests[1]?.body).toBe(first?.body);
    verified(webhook.secret, requests[1] as Received);
    const unknown = await api(`/api/webhooks/${webhook.id}/deliveries/msg_nope/replay`, { method: 'POST', key });
    expect(unknown.status).toBe(404);
  });
});

describe('webhook events from a thread (WH-1, WH-8)', () => {
  it('wait.opened once per wait, then turn.completed; no payload holds the secret value', async () => {
    const { key } = await newTenant();
    const hook = endpoint();
    const token = `canary-${crypto.randomUUID()}`;
    const webhook = await register(key, hook.url, ['wait.opened', 'turn.completed', 'turn.failed']);
    const started = await startThread(key, {
      agent: 'sec_scripted',
      variables: { SEC_API_KEY: token },
      messages: [
        {
          role: 'user',
          content: directive([
            { toolCalls: [{ name: 'question', arguments: { questions: [{ question: `Is ${token} right?` }] } }] },
            { text: `the token was ${token}` },
          ]),
        },
      ],
    });
    const id = String(started.id);
    const [opened] = await receivedAtLeast(hook.name, 1);
    const wait = verified(webhook.secret, opened as Received);
    expect(wait).toMatchObject({
      type: 'wait.opened',
      data: { thread_id: id, kind: 'question', tool_name: 'question' },
    });
    const callId = String(wait.data.tool_call_id);
    const answered = await api(`/api/threads/${id}/answers`, {
      method: 'POST',
      json: { tool_call_id: callId, answers: [[`yes ${token}`]] },
      key,
    });
    expect(answered.status).toBe(200);
    await settled(id, key);
    await receivedAtLeast(hook.name, 2);
    // A model failure whose message holds the secret: turn.failed carries it scrubbed.
    const failing = await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: JSON.stringify({ fail: `upstream said ${token}` }) },
      key,
    });
    expect(failing.status).toBe(202);
    const requests = await receivedAtLeast(hook.name, 3);
    const payloads = requests.map((request) => verified(webhook.secret, request));
    expect(payloads.map((payload) => payload.type)).toEqual(['wait.opened', 'turn.completed', 'turn.failed']);
    expect(JSON.stringify(payloads[2]?.data)).toContain('upstream said');
    for (const request of requests) {
      expect(request.body).not.toContain(token);
      expect(request.body).not.toContain(token.slice('canary-'.length));
    }
  });
});
