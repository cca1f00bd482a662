/**
 * The threads screen as a person uses it, in Chromium against a real `wrangler dev` (one for the
 * file): the list follows new threads and status changes without Refresh, asking with the page's
 * ETag so an unchanged list costs a 304; the "waiting on a person" filter; a blocking subagent's
 * tool card says how long the subagent really ran; no sideways scrolling on a 390 px phone; the
 * Inbox lists the waits of every thread and answers them from the list; and `/docs` renders the API
 * reference with no request leaving this machine. Screenshots go to test-output/screenshots/.
 */
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../client/index.js';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import { type InspectorSession, KEY, signIn, startInspectorSession, until } from '../support/inspector-browser.js';

let session: InspectorSession;
let page: Page;
let api: Client;
let model: OpenAIServer;
let origin: string;
/** Every answer the page got to GET /api/threads, by status. */
const listAnswers: number[] = [];

/** The row of the list that links to thread `id`. */
function row(id: string): Locator {
  return page.locator('table.threads tbody tr').filter({ has: page.locator(`a[title="${id}"]`) });
}

/** Milliseconds from a duration as the page writes it: "850 ms", "1.23 s", "2 min 5 s". */
function milliseconds(text: string): number {
  const minutes = /^(\d+) min (\d+) s/.exec(text);
  if (minutes) return (Number(minutes[1]) * 60 + Number(minutes[2])) * 1000;
  const seconds = /^([\d.]+) s/.exec(text);
  if (seconds) return Number(seconds[1]) * 1000;
  const ms = /^(\d+) ms/.exec(text);
  if (ms) return Number(ms[1]);
  throw new Error(`no duration at the start of ${JSON.stringify(text)}`);
}

/** The threads screen, signing in first if this page has not yet. */
async function openThreads(): Promise<void> {
  await page.goto(`${origin}/?key=${KEY}`);
  const signInButton = page.getByRole('button', { name: 'Sign in' });
  const heading = page.getByRole('heading', { name: 'Threads', level: 1 });
  await signInButton.or(heading).first().waitFor();
  if (await signInButton.isVisible()) await signInButton.click();
  await heading.waitFor();
}

beforeAll(async () => {
  session = await startInspectorSession();
  ({ page, api, model } = session);
  origin = session.dev.url;
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/threads' && response.request().method() === 'GET') listAnswers.push(response.status());
  });
});

afterAll(async () => {
  await session?.close();
});

beforeEach(({ onTestFailed }) => {
  model.reset();
  onTestFailed(() => console.error(`wrangler dev output (the end):\n${session?.devOutput()}`));
});

describe('the threads screen', () => {
  it('shows a thread created elsewhere and its change to waiting without Refresh or a reload', async () => {
    await signIn(page, origin);
    // A mark in the page: a reload would lose it.
    await page.evaluate('window.__sameDocument = true');
    const idle = await api.threads.create({ agent: 'workspace', tags: ['live-list'] });
    await row(idle.id).waitFor({ timeout: 15_000 });
    await row(idle.id).getByText('idle', { exact: true }).waitFor();
    await session.shot('thread-list-01-new-thread-appears');

    // The same thread starts waiting on a question: its row says so by itself.
    model.enqueue({
      toolCalls: [
        {
          name: 'question',
          arguments: JSON.stringify({ questions: [{ question: 'Which branch?', options: [{ label: 'main' }] }] }),
        },
      ],
    });
    await api.messages.post(idle.id, { content: 'Ask me which branch.' });
    await row(idle.id).getByText('waiting', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    await session.shot('thread-list-02-status-changes');

    // While nothing changed, the list's questions were answered 304, without a body.
    const before = listAnswers.filter((status) => status === 304).length;
    await until(
      async () => listAnswers.filter((status) => status === 304).length,
      (count) => count > before,
      'an unchanged list to be answered 304',
    );
    expect(listAnswers.every((status) => status === 200 || status === 304)).toBe(true);
  });

  it('filters the threads waiting on a person', async () => {
    const waiting = await api.threads.list({ status: 'waiting' });
    expect(waiting.threads.map((thread) => thread.tags)).toEqual([['live-list']]);
    const other = await api.threads.create({ agent: 'workspace', tags: ['not-waiting'] });
    await row(other.id).waitFor({ timeout: 15_000 });

    await page.getByLabel('Filter by status').selectOption('waiting');
    await row(other.id).waitFor({ state: 'detached' });
    const rows = page.locator('table.threads tbody tr');
    await until(
      () => rows.count(),
      (count) => count === 1,
      'one waiting thread',
    );
    await row(waiting.threads[0]?.id ?? '')
      .getByText('waiting', { exact: true })
      .waitFor();
    await session.shot('thread-list-03-waiting-filter');
    await page.getByLabel('Filter by status').selectOption('');
    await row(other.id).waitFor();
  });

  it('has no sideways scrolling at 390 px', async () => {
    // A thread with a long unbroken tag, the widest row a list can get.
    const wide = await api.threads.create({
      agent: 'workspace',
      tags: ['a-tag-with-no-space-to-break-at-that-is-wider-than-any-phone-screen-by-itself'],
    });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openThreads();
      await row(wide.id).waitFor();
      const widths = (await page.evaluate(
        `({ page: document.documentElement.scrollWidth, table: document.querySelector('table.threads').scrollWidth,
            box: document.querySelector('table.threads').clientWidth })`,
      )) as { page: number; table: number; box: number };
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.table).toBeLessThanOrEqual(widths.box);
      await session.shot('thread-list-04-390px');
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });

  it("shows a blocking subagent's real duration on its tool card, as long as the child ran", async () => {
    // Six model turns of the child, each streamed slowly enough that the run lasts over a second.
    const slow = { chunkSize: 2, chunkDelayMs: 25 };
    const globCall = (pattern: string) => ({
      ...slow,
      toolCalls: [{ name: 'glob', arguments: JSON.stringify({ pattern }) }],
    });
    model.enqueue(
      { toolCalls: [{ name: 'task', arguments: JSON.stringify({ description: 'survey', prompt: 'Look around.' }) }] },
      globCall('*.md'),
      globCall('*.ts'),
      globCall('*.json'),
      globCall('*.txt'),
      globCall('*.css'),
      { ...slow, text: 'Nothing here but an empty workspace.' },
      { text: 'The subagent found an empty workspace.' },
    );
    const parent = await api.threads.create({
      agent: 'workspace',
      messages: [{ content: 'Survey the workspace with a subagent.' }],
    });
    await page.goto(`${origin}/#/threads/${parent.id}`);
    const card = page.getByRole('article', { name: 'Tool call task' });
    await card.and(page.locator('[data-state="success"]')).waitFor({ timeout: 30_000 });
    const took = milliseconds(/took (.*)/.exec((await card.textContent()) ?? '')?.[1] ?? '');

    // The child as the API tells it: six model turns, and how long they took.
    const details = await until(
      () => api.threads.get(parent.id),
      (thread) => thread.children[0]?.status === 'idle',
      'the child to be idle',
    );
    const childId = details.children[0]?.id ?? '';
    const { messages } = await api.messages.list(childId);
    expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(6);
    const childRan = (messages.at(-1)?.created_at ?? 0) - (messages[0]?.created_at ?? 0);
    expect(childRan).toBeGreaterThan(1000);
    const stored = (await api.messages.list(parent.id)).messages.find((message) => message.name === 'task');
    // The card shows the stored duration, rounded for reading.
    expect(Math.abs((stored?.envelope?.metadata.duration_ms ?? 0) - took)).toBeLessThanOrEqual(100);
    expect(took).toBeGreaterThanOrEqual(childRan - 100);
    expect(took).toBeLessThan(childRan + 3000);

    // The subagent tree says how long the child ran, and it agrees with the card.
    const tree = page.getByRole('list', { name: 'Subagent tree' });
    const ran = await until(
      async () => (await tree.textContent()) ?? '',
      (text) => /ran /.test(text),
      "the child's run time in the tree",
    );
    expect(Math.abs(milliseconds(/ran (.*)/.exec(ran)?.[1] ?? '') - took)).toBeLessThan(1000);
    await session.shot('thread-list-05-subagent-duration');
  });
});

describe('the Inbox', () => {
  /** The Inbox's row of the wait of thread `id`. */
  function waitRow(id: string): Locator {
    return page.locator('.inbox-list article').filter({ has: page.locator(`a[title="${id}"]`) });
  }

  /** Waits until the thread is paused on an answer and returns its details. */
  function paused(id: string) {
    return until(
      () => api.threads.get(id),
      (thread) => thread.status === 'waiting' && thread.waiting_for.length === 1,
      `thread ${id} to wait`,
    );
  }

  function idle(id: string) {
    return until(
      () => api.threads.get(id),
      (thread) => thread.status === 'idle',
      `thread ${id} to end its turn`,
    );
  }

  it('INBOX-7: lists the waits of two threads; answering one from the list resumes that thread and removes its row', async () => {
    // A workspace thread asks a question; an assistant thread's fetch_data waits for an approval.
    const questions = [
      { question: 'Which region should it run in?', options: [{ label: 'Europe' }, { label: 'Asia' }] },
    ];
    model.enqueue({
      toolCalls: [{ id: 'call_inbox_question', name: 'question', arguments: JSON.stringify({ questions }) }],
    });
    const asking = await api.threads.create({ agent: 'workspace', messages: [{ content: 'Deploy the project.' }] });
    await paused(asking.id);
    const endpoint = `${session.data.url}/weather.json`;
    model.enqueue({
      toolCalls: [{ id: 'call_inbox_fetch', name: 'fetch_data', arguments: JSON.stringify({ endpoint }) }],
    });
    const approving = await api.threads.create({ agent: 'assistant', messages: [{ content: 'Read the weather.' }] });
    await paused(approving.id);
    session.data.requested.length = 0;

    await openThreads();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await waitRow(asking.id).getByRole('radio', { name: 'Europe' }).waitFor({ timeout: 15_000 });
    await waitRow(approving.id).getByRole('button', { name: 'Approve', exact: true }).waitFor();
    expect(await waitRow(asking.id).textContent()).toMatch(/agent workspace.*Which region should it run in\?/s);
    expect(await waitRow(approving.id).textContent()).toMatch(/agent assistant.*\/weather\.json/s);
    await session.shot('inbox-01-two-waits');

    // The question, answered from the list: its row goes, its thread resumes with the answer.
    model.enqueue({ text: 'Deploying to Europe.' });
    await waitRow(asking.id).getByRole('radio', { name: 'Europe' }).check();
    await waitRow(asking.id).getByRole('button', { name: 'Send answers' }).click();
    await waitRow(asking.id).waitFor({ state: 'detached' });
    await idle(asking.id);
    const log = (await api.messages.list(asking.id)).messages;
    const answer = log.find((message) => message.tool_call_id === 'call_inbox_question');
    expect(JSON.parse(answer?.content ?? '{}')).toEqual({ answers: [['Europe']] });
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'Deploying to Europe.' });
    // Read again, the list still holds the other wait and not the answered one.
    await until(
      () => api.waits.list(),
      (listed) => !listed.waits.some((wait) => wait.thread_id === asking.id),
      'the answered wait to leave GET /api/waits',
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('status').filter({ hasText: 'waiting for an answer' }).waitFor();
    expect(await waitRow(asking.id).count()).toBe(0);
    await waitRow(approving.id).waitFor();
    await session.shot('inbox-02-question-answered');

    // The approval, rejected from the list with a reason: the call never runs.
    model.enqueue({ text: 'I will not read it.' });
    await waitRow(approving.id).getByLabel('Reason').fill('not today');
    await waitRow(approving.id).getByRole('button', { name: 'Reject' }).click();
    await waitRow(approving.id).waitFor({ state: 'detached' });
    await idle(approving.id);
    const refused = (await api.messages.list(approving.id)).messages.find(
      (message) => message.tool_call_id === 'call_inbox_fetch',
    );
    expect(refused).toMatchObject({ role: 'tool', tool_status: 'error' });
    expect(refused?.content).toContain('not today');
    expect(session.data.requested).toEqual([]);
  });
});

describe('the Webhooks page', () => {
  it('WH-9: lists an endpoint and its deliveries with their attempts and last status; Replay sends one again', async () => {
    // The local JSON service is a development host (EGRESS_ALLOW_HOSTS): it answers 200 to every POST.
    const path = `/hooks/${crypto.randomUUID()}`;
    const webhook = await api.webhooks.create({ url: `${session.data.url}${path}`, events: ['thread.created'] });
    const thread = await api.threads.create({ agent: 'workspace' });
    const sent = () => session.data.requested.filter((requested) => requested === path).length;
    await until(
      async () => sent(),
      (count) => count === 1,
      'the delivery to arrive',
    );
    await openThreads();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    const card = page.locator(`section[data-webhook="${webhook.id}"]`);
    expect(await card.locator('.section-head .badge').textContent()).toBe('enabled');
    const delivery = card.locator('li.delivery').first();
    await delivery.locator('strong', { hasText: 'thread.created' }).waitFor();
    expect(await delivery.locator('.badge').first().textContent()).toBe('delivered');
    expect(await delivery.locator('ol.attempts li').count()).toBe(1);
    expect(await delivery.locator('ol.attempts li').first().textContent()).toContain('HTTP 200');
    expect(await delivery.locator('details pre').textContent()).toContain(thread.id);
    await session.shot('thread-list-08-webhooks');
    await delivery.getByRole('button', { name: 'Replay' }).click();
    await until(
      async () => sent(),
      (count) => count === 2,
      'the replay to arrive',
    );
    await card.locator('li.delivery').first().locator('ol.attempts li').nth(1).waitFor();
    const page1 = await api.webhooks.deliveries(webhook.id);
    expect(page1.deliveries[0]?.attempts.map((attempt) => attempt.status_code)).toEqual([200, 200]);
  });
});

describe('/docs', () => {
  it('renders the API reference with no request leaving this machine', async () => {
    const docs = await session.context.newPage();
    const outside: string[] = [];
    await docs.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === '127.0.0.1' || host === 'localhost') return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const errors: string[] = [];
    docs.on('pageerror', (error) => errors.push(error.message));
    await docs.goto(`${origin}/docs`);
    // The document's own title and description, rendered by the reference; then its operations.
    // A deadline, not an expectation: the reference lays out the whole document (about 2 s here) and
    // took over 30 s once with both cores busy.
    await docs
      .getByRole('heading', { name: 'Standard Agents runtime for Cloudflare Workers' })
      .waitFor({ timeout: 90_000 });
    await docs.getByText('Threads are Durable Objects').first().waitFor();
    // Operations of the document, by the summaries the routes declare.
    await docs.getByText('An interactive reference of this document').first().waitFor();
    await docs.getByText('This document', { exact: true }).first().waitFor();
    expect(await docs.getByRole('alert').filter({ hasText: 'could not load' }).count()).toBe(0);
    await session.shot('thread-list-06-docs-offline', docs);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await docs.close();
  });

  it('says so, and links the OpenAPI document, when the reference script cannot load', async () => {
    const docs = await session.context.newPage();
    await docs.route('**/vendor/**', (route) => route.abort());
    await docs.goto(`${origin}/docs`);
    const failed = docs.getByRole('alert').filter({ hasText: 'could not load' });
    await failed.waitFor();
    expect(await failed.getByRole('link', { name: '/openapi.json' }).getAttribute('href')).toBe('/openapi.json');
    await session.shot('thread-list-07-docs-fallback', docs);
    await docs.close();
  });
});
