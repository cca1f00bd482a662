/**
 * The thread screen as a playground, in Chromium against one real `wrangler dev` whose model is
 * scripted step by step: the log follows new frames above the docked message box and stops
 * following when the user scrolls up; what the thread waits for is shown next to the message box;
 * a failed turn reads in the log where it happened, with the error's text and what to do; a reply
 * cut short by Stop is marked; a `todo` call fills the todo panel; the raw frames are one click
 * away; and nothing is wider than a 390 px phone screen. A screenshot of each lands in
 * test-output/screenshots/.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../client/index.js';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import { THREAD_SCREEN_TEXTS } from '../support/hostile-corpus.js';
import {
  type InspectorSession,
  SCREENSHOTS,
  signIn,
  startInspectorSession,
  until,
} from '../support/inspector-browser.js';

let session: InspectorSession;
let model: OpenAIServer;
let api: Client;
let page: Page;

/** Viewport-relative boxes; the page is compiled without the DOM's types, so nothing reads elements. */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not visible');
  return found;
}

/** What is on screen, not the whole page: where the docked message box and the jump control are. */
function view(name: string): Promise<Buffer> {
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

const scrollY = () => page.evaluate('window.scrollY') as Promise<number>;
const viewportHeight = () => page.evaluate('window.innerHeight') as Promise<number>;

const messageBox = () => page.getByLabel('Message', { exact: true });
const jump = () => page.getByRole('button', { name: 'Jump to latest' });
const assistant = (text: string) => page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: text });

/** Opens a thread's screen and waits until its live log is connected. */
async function open(id: string): Promise<void> {
  await page.goto(`${session.dev.url}/#/threads/${id}`);
  await page.getByRole('heading', { name: `Thread ${id.slice(0, 8)}` }).waitFor();
  await page.getByText('live', { exact: true }).waitFor();
}

async function post(content: string): Promise<void> {
  await messageBox().fill(content);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The thread once its turn has ended. */
function settled(id: string) {
  return until(
    () => api.threads.get(id),
    (thread) => thread.status !== 'running',
    `thread ${id} to finish its turn`,
  );
}

/** Whether `item`'s bottom edge is in view, above the docked message box. */
async function inViewAboveDock(item: Locator): Promise<boolean> {
  const [last, dock] = await Promise.all([box(item), box(page.locator('.dock'))]);
  return last.y + last.height <= dock.y + 1 && last.y + last.height > 0;
}

/** A long history: 40 stored messages, ending with the assistant's, so no turn starts. */
function longHistory() {
  return Array.from({ length: 40 }, (_, index) => ({
    role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `History ${index}: ${'words that take some room on the screen '.repeat(3)}`,
  }));
}

beforeAll(async () => {
  session = await startInspectorSession({ viewport: { width: 1280, height: 720 } });
  ({ model, api, page } = session);
  await signIn(page, session.dev.url);
});

afterAll(async () => {
  await session?.close();
});

beforeEach(({ onTestFailed }) => {
  model.reset();
  onTestFailed(() => console.error(`wrangler dev output (the end):\n${session?.devOutput()}`));
});

describe('the thread screen', () => {
  it('follows new frames above the docked message box, pauses when scrolled up, and jumps back', async () => {
    const { id } = await api.threads.create({ agent: 'assistant', messages: longHistory() });
    await open(id);
    // Opening the thread shows its end, above the message box, which stays on screen.
    const lastStored = assistant('History 39');
    await until(() => inViewAboveDock(lastStored), Boolean, 'the last stored message in view');
    const dock = await box(page.locator('.dock'));
    expect(dock.y + dock.height).toBeLessThanOrEqual((await viewportHeight()) + 1);
    expect(await scrollY()).toBeGreaterThan(0);

    model.enqueue({ text: `Streamed ${'line of a long answer\n'.repeat(30)}done.`, chunkSize: 40 });
    await post('Tell me something long.');
    const answer = assistant('done.');
    await answer.waitFor();
    await until(() => inViewAboveDock(answer), Boolean, 'the streamed answer followed to its end');
    expect(await jump().isHidden()).toBe(true);
    await view('p01-following');

    // The user scrolls up (at once: a wheel's smooth scroll would still be moving when read), and
    // following pauses and the jump control appears.
    await page.evaluate("window.scrollTo({ top: 200, behavior: 'instant' })");
    await jump().waitFor();
    const readingAt = await scrollY();
    expect(readingAt).toBe(200);
    model.enqueue({ text: `Second ${'more lines\n'.repeat(30)}finished.` });
    await post('And another.');
    const second = assistant('finished.');
    await second.waitFor();
    await settled(id);
    // The page stayed where the user was reading; the new answer is below, out of view.
    expect(await scrollY()).toBe(readingAt);
    expect(await inViewAboveDock(second)).toBe(false);
    await view('p02-paused-with-jump');

    await jump().click();
    await until(() => inViewAboveDock(second), Boolean, 'the latest answer in view after the jump');
    await jump().waitFor({ state: 'hidden' });
  });

  it('shows what the thread waits for next to the message box', async () => {
    const questions = [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Red' }, { label: 'Blue' }] }];
    model.enqueue(
      { toolCalls: [{ id: 'call_q', name: 'question', arguments: JSON.stringify({ questions }) }] },
      { text: 'Blue it is.' },
    );
    const { id } = await api.threads.create({ agent: 'workspace', messages: longHistory() });
    await open(id);
    await post('Pick a colour with me.');
    const waits = page.getByRole('region', { name: 'Waiting for an answer' });
    await waits.getByRole('radio', { name: 'Blue' }).waitFor();
    // The question sits right above the message box, both on screen.
    const [asked, composer] = await Promise.all([box(waits), box(messageBox())]);
    expect(asked.y).toBeGreaterThanOrEqual(0);
    expect(asked.y + asked.height).toBeLessThanOrEqual(composer.y);
    expect(composer.y + composer.height).toBeLessThanOrEqual(await viewportHeight());
    await view('p03-wait-by-the-composer');

    await waits.getByRole('radio', { name: 'Blue' }).check();
    await waits.getByRole('button', { name: 'Send answers' }).click();
    await assistant('Blue it is.').waitFor();
    await waits.waitFor({ state: 'hidden' });
    expect(await settled(id)).toMatchObject({ status: 'idle', waiting_for: [] });
  });

  it('shows a failed turn in the log where it happened, with the error and what to do', async () => {
    const refusal = { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } };
    model.enqueue({ status: 401, body: refusal });
    // The turn fails before the page is open: only its frames say where.
    const { id } = await api.threads.create({ agent: 'assistant', messages: [{ content: 'First question' }] });
    const failed = await settled(id);
    expect(failed.status).toBe('error');
    expect(failed.last_error).toBeTruthy();
    await open(id);

    const entries = page.locator('.log > li');
    const failure = page.getByRole('alert', { name: 'Failed turn' });
    await failure.waitFor();
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(0).textContent()).toContain('First question');
    expect(await entries.nth(1).getByRole('alert', { name: 'Failed turn' }).count()).toBe(1);
    expect(await failure.locator('.failure-text').textContent()).toBe(failed.last_error);
    expect(await failure.textContent()).toContain('What to do:');
    await session.shot('p04-failed-turn-read');

    // A second failure, live, lands after the message that caused it; the first stays in place.
    model.enqueue({ status: 401, body: refusal });
    await post('Second question');
    await until(
      () => failure.count(),
      (n) => n === 2,
      'a second failed turn',
    );
    expect(await entries.count()).toBe(4);
    expect(await entries.nth(2).textContent()).toContain('Second question');
    expect(await entries.nth(3).getByRole('alert', { name: 'Failed turn' }).count()).toBe(1);
    expect((await settled(id)).status).toBe('error');
    await session.shot('p05-failed-turn-live');
  });

  it('marks a reply cut short by Stop, live and after a reload', async () => {
    model.enqueue({ text: 'I will think about this for a very long time...', chunkSize: 8, stallAfter: 3 });
    const { id } = await api.threads.create({ agent: 'assistant' });
    await open(id);
    await post('Take your time.');
    await page.locator('.log .streaming').waitFor();
    await api.threads.stop(id);

    const cut = page.getByRole('article', { name: 'Assistant message' }).filter({ has: page.getByRole('note') });
    await cut.getByText('Stopped').waitFor();
    await session.shot('p06-stopped-reply');
    await settled(id);
    const { messages } = await api.messages.list(id);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', metadata: { aborted: true } });

    await page.reload();
    await page.getByText('live', { exact: true }).waitFor();
    await cut.getByText('Stopped').waitFor();
    expect(await page.getByRole('note').count()).toBe(1);
  });

  it("fills the todo panel from a todo call, showing the model's text as text", async () => {
    const hostile = THREAD_SCREEN_TEXTS.map((entry) => entry.text);
    const todos = [
      { content: 'Read the brief', status: 'completed' },
      { content: 'Sketch the screen', status: 'in_progress' },
      ...hostile.map((content) => ({ content, status: 'pending' })),
    ];
    model.enqueue(
      { toolCalls: [{ id: 'call_todo', name: 'todo', arguments: JSON.stringify({ todos }) }] },
      { text: `Planned. ${hostile.join(' ')}` },
    );
    const { id } = await api.threads.create({ agent: 'workspace' });
    await open(id);
    await post('Plan the work.');

    const panel = page.getByRole('region', { name: 'Todo' });
    const items = panel.getByRole('listitem');
    await until(
      () => items.count(),
      (n) => n === todos.length,
      'every todo item',
    );
    expect(await items.allTextContents()).toEqual(
      todos.map(
        (todo) => `${{ completed: 'done', in_progress: 'in progress', pending: 'to do' }[todo.status]} ${todo.content}`,
      ),
    );
    expect(await panel.getByText(`1 of ${todos.length} done`).count()).toBe(1);
    await assistant('Planned.').waitFor();
    await settled(id);
    // Markup from the model stayed text: nothing it names ran or was built.
    expect(await page.evaluate('window.__screenPwned')).toBeUndefined();
    expect(
      await page.locator('.thread-screen img, .thread-screen script, .thread-screen a[href^="javascript"]').count(),
    ).toBe(0);
    await session.shot('p07-todo-panel');

    // Read again from the stored log, the same list.
    await page.reload();
    await until(
      () => items.count(),
      (n) => n === todos.length,
      'every todo item after a reload',
    );
  });

  it('shows the raw frames of the stream, oldest first, and adds new ones', async () => {
    model.enqueue({ text: 'Frames, please.' });
    const { id } = await api.threads.create({ agent: 'assistant', messages: [{ content: 'Hello' }] });
    const before = await settled(id);
    await open(id);
    await page.getByText('Raw frames').click();
    const frames = page.getByRole('list', { name: 'Frames' }).getByRole('listitem');
    await until(
      () => frames.count(),
      (n) => n === before.last_frame_seq,
      'every frame so far',
    );
    expect(await frames.first().getAttribute('data-seq')).toBe('1');
    expect(await frames.last().getAttribute('data-seq')).toBe(String(before.last_frame_seq));
    expect(await page.locator('.raw-frames li[data-type="message"]').count()).toBeGreaterThanOrEqual(2);

    model.enqueue({ text: 'More frames.' });
    await post('Again');
    await assistant('More frames.').waitFor();
    const after = await settled(id);
    await until(
      () => frames.count(),
      (n) => n === after.last_frame_seq,
      'the new frames added',
    );
    expect(await frames.last().textContent()).toContain('"type": "status"');
    await session.shot('p08-raw-frames');
  });

  it('keeps a folder the user opened open when the files refresh after a tool writes', async () => {
    const write = (id: string, path: string) => ({
      toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path, content: `# ${path}\n` }) }],
    });
    model.enqueue(write('call_a', '/notes/a.md'), { text: 'Wrote a.' });
    const { id } = await api.threads.create({ agent: 'workspace' });
    await open(id);
    await post('Write a.');
    await assistant('Wrote a.').waitFor();
    await settled(id);
    const files = page.getByRole('region', { name: 'Files' });
    await files.getByText('notes/').click();
    await files.getByRole('link', { name: '/notes/a.md' }).waitFor();

    model.enqueue(write('call_b', '/notes/b.md'), { text: 'Wrote b.' });
    await post('Write b.');
    await assistant('Wrote b.').waitFor();
    await settled(id);
    // The refreshed tree shows the new file inside the folder, still open.
    await files.getByRole('link', { name: '/notes/b.md' }).waitFor();
    expect(await files.getByRole('link', { name: '/notes/a.md' }).isVisible()).toBe(true);
  });

  it('fits a 390 px wide screen, with long words, JSON and a failed turn', async () => {
    const hostile = THREAD_SCREEN_TEXTS.map((entry) => entry.text).join('\n');
    model.enqueue(
      {
        toolCalls: [
          {
            id: 'call_wide',
            name: 'todo',
            arguments: JSON.stringify({ todos: [{ content: hostile, status: 'pending' }] }),
          },
        ],
      },
      { text: hostile },
      { status: 401, body: { error: { message: `Refused: ${'z'.repeat(300)}` } } },
    );
    const { id } = await api.threads.create({ agent: 'workspace', tags: ['a-long-tag-without-any-spaces-in-it'] });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await open(id);
      await post(hostile);
      // The todo call's message and the answer both hold the text.
      await until(
        () => assistant('evil.exe').count(),
        (n) => n === 2,
        'the answer',
      );
      await settled(id);
      await post('Once more');
      await page.getByRole('alert', { name: 'Failed turn' }).waitFor();
      await settled(id);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      // The message box is on screen and the latest entry just above it.
      await until(
        () => inViewAboveDock(page.getByRole('alert', { name: 'Failed turn' })),
        Boolean,
        'the failed turn in view above the message box',
      );
      await view('p09-phone-width');
      // The panels below the log (the raw frames open, with their JSON) fit too.
      await page.getByText('Raw frames').click();
      await page.getByRole('list', { name: 'Frames' }).getByRole('listitem').first().waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await session.shot('p10-phone-width-panels');
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('logged no errors in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
