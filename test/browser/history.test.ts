/**
 * Files on messages, forks and edits in the inspector, in Chromium against a real `wrangler dev`
 * (the example agents, their model a scripted local server). One image is attached with the file
 * picker and one dropped on the composer; a refused file keeps the text and the files; the sent
 * message shows both with thumbnails. A fork from a message opens the fork, which says where it
 * came from and is listed in the source's fork tree; a fork inside a tool round is refused with
 * the nearest points, one of which forks. Editing a user message sends the edited text in a new
 * thread and leaves the original as it was. Everything is checked on the page and through the API;
 * screenshots go to test-output/screenshots/history-*.png.
 */
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client, Message } from '../../client/index.js';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import { INSPECTOR_MESSAGE_FILES } from '../support/hostile-corpus.js';
import { type InspectorSession, signIn, startInspectorSession, until } from '../support/inspector-browser.js';

let session: InspectorSession;
let page: Page;
let api: Client;
let model: OpenAIServer;
/** The thread the files are sent to; the later tests fork and edit it. */
let sourceId = '';
/** The first fork of it, made from the page; forked again through the API for the tree's second level. */
let firstForkId = '';

/** CRC-32 of PNG chunks (the polynomial of zlib and PNG). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of one colour, `width` × `height` (8-bit RGB), so its type and size can be checked. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const PICKED = { name: 'picked.png', mimeType: 'image/png', buffer: png(12, 8, [200, 40, 40]) };
const DROPPED = { name: 'dropped.png', mimeType: 'image/png', buffer: png(6, 10, [40, 80, 200]) };
const FIRST_TEXT = 'What is in these two pictures?';
const EDITED_TEXT = 'Describe only the colours of these pictures.';

beforeAll(async () => {
  session = await startInspectorSession({
    // The refused post is a failed request the page reports itself.
    expectedConsoleErrors: ['the server responded with a status of 4'],
  });
  ({ page, api, model } = session);
  await signIn(page, session.dev.url);
});

afterAll(async () => {
  await session?.close();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.error(`wrangler dev output (the end):\n${session?.devOutput()}`);
    console.error(`model requests (the last message of each):\n${modelRequests()}`);
  });
});

/** What the scripted model was asked, one line a request: which turn consumed which reply. */
function modelRequests(): string {
  return model.requests
    .map((request, index) => {
      const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
      const last = messages.at(-1);
      return `${index}: ${messages.length} messages, last ${last?.role}: ${JSON.stringify(last?.content).slice(0, 80)}`;
    })
    .join('\n');
}

function composer(): Locator {
  return page.getByRole('form', { name: 'Post a message' });
}

function chips(): Locator {
  return page.getByRole('list', { name: 'Files to send' }).getByRole('listitem');
}

/** Drops a file on the composer as a drag from the desktop would: a `drop` event carrying it. */
async function dropFile(
  file: { name: string; mimeType: string; buffer: Buffer },
  on: Locator = composer(),
): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, mimeType, base64 }) => {
      // The page's own classes (this project's Node types know no DOM).
      const page = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
      };
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new page.DataTransfer();
      data.items.add(new page.File([bytes], name, { type: mimeType }));
      return data;
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') },
  );
  await on.dispatchEvent('dragover', { dataTransfer: transfer });
  await on.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Whether a file dropped on `on` has its default (the browser opening the file) prevented. */
async function strayDropPrevented(on: Locator): Promise<boolean> {
  return on.evaluate((target) => {
    const page = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
      DragEvent: new (
        type: string,
        init: { dataTransfer: unknown; bubbles: boolean; cancelable: boolean },
      ) => { defaultPrevented: boolean };
    };
    const data = new page.DataTransfer();
    data.items.add(new page.File(['x'], 'stray.txt', { type: 'text/plain' }));
    const drop = new page.DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
    (target as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(drop);
    return drop.defaultPrevented;
  });
}

/** Pastes an image in the message box, as a screenshot on the clipboard pastes: a file without a name. */
async function pasteImage(bytes: Buffer): Promise<void> {
  await page.getByLabel('Message', { exact: true }).evaluate((box, base64) => {
    const page = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
      ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean }) => unknown;
    };
    const data = new page.DataTransfer();
    const file = new page.File([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))], '', {
      type: 'image/png',
    });
    data.items.add(file);
    (box as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(
      new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true }),
    );
  }, bytes.toString('base64'));
}

async function pick(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    composer().getByRole('button', { name: 'Attach files' }).click(),
  ]);
  await chooser.setFiles(file);
}

/**
 * A stored file's link, by the name the user gave it: the stored name may carry a prefix making its
 * path unique (`<id>-picked.png`).
 */
const picked = /^(?:[0-9a-f-]+-)?picked\.png$/;
const dropped = /^(?:[0-9a-f-]+-)?dropped\.png$/;

/** What is read of an <img> on the page. */
interface DrawnImage {
  alt: string;
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
}

/** The user's message entries in the log that hold `text`. */
function userEntry(text: string): Locator {
  return page.getByRole('article', { name: 'User message' }).filter({ hasText: text });
}

async function idle(id: string) {
  return until(
    () => api.threads.get(id),
    (thread) => thread.status === 'idle',
    `thread ${id} to be idle`,
  );
}

async function log(id: string): Promise<Message[]> {
  return (await api.messages.list(id, { limit: 1000 })).messages;
}

/** The id of the thread the page shows, once the page has moved away from `from`. */
async function openedThread(from: string): Promise<string> {
  await page.waitForURL((url) => /#\/threads\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.includes(from));
  const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
  await page.getByRole('heading', { name: `Thread ${id.slice(0, 8)}` }).waitFor();
  return id;
}

describe('files on a message', () => {
  it('MSG-20: attaches a picked and a dropped image, keeps both through a refusal, and shows them in the log', async () => {
    const { id } = await api.threads.create({ agent: 'workspace' });
    sourceId = id;
    await page.goto(`${session.dev.url}/#/threads/${id}`);
    await page.getByText('live', { exact: true }).waitFor();

    await pick(PICKED);
    await dropFile(DROPPED);
    // A file dropped beside the message box is not attached, nor opened in place of the page.
    await dropFile({ ...DROPPED, name: 'stray.png' }, page.getByRole('region', { name: 'Log' }));
    expect(await strayDropPrevented(page.getByRole('region', { name: 'Log' }))).toBe(true);
    expect(await chips().allTextContents()).toEqual([
      expect.stringMatching(/^picked\.png.*B/),
      expect.stringMatching(/^dropped\.png.*B/),
    ]);

    // A file of a type the server refuses: the post fails, the alert says why, nothing is lost.
    await pick({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<h1>not a picture</h1>') });
    await page.getByLabel('Message', { exact: true }).fill(FIRST_TEXT);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const refusal = page.getByRole('alert').getByText(/Could not post the message: .*unsupported_media_type/);
    await refusal.waitFor();
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe(FIRST_TEXT);
    expect(await chips().count()).toBe(3);
    expect(await log(id)).toEqual([]);
    await session.shot('history-01-refused');

    await composer().getByRole('button', { name: 'Remove page.html' }).click();
    expect(await chips().count()).toBe(2);
    await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
    model.enqueue({ text: 'A red picture and a blue one.' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const sent = userEntry(FIRST_TEXT);
    await sent.waitFor();
    const files = sent.getByRole('list', { name: 'Attached files' });
    await files.getByRole('link', { name: dropped }).waitFor();
    expect(await files.getByRole('link', { name: picked }).count()).toBe(1);
    // Once the post is answered the box is empty again.
    await page.getByRole('list', { name: 'Files to send' }).waitFor({ state: 'hidden' });
    expect(await chips().count()).toBe(0);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    // The thumbnails show the stored bytes: each image drawn at its own size.
    await files.locator('img[src^="blob:"]').nth(1).waitFor();
    const sizes = await files.getByRole('img').evaluateAll(async (images) =>
      Promise.all(
        (images as unknown as DrawnImage[]).map(async (image) => {
          await image.decode();
          return [image.alt, image.naturalWidth, image.naturalHeight];
        }),
      ),
    );
    expect(sizes).toEqual([
      [expect.stringMatching(picked), 12, 8],
      [expect.stringMatching(dropped), 6, 10],
    ]);

    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'A red picture' }).waitFor();
    await idle(id);
    const stored = (await log(id)).find((message) => message.role === 'user');
    expect(stored?.content).toBe(FIRST_TEXT);
    expect(stored?.attachments?.map((file) => [file.name, file.mimeType, file.size])).toEqual([
      [expect.stringMatching(picked), 'image/png', PICKED.buffer.length],
      [expect.stringMatching(dropped), 'image/png', DROPPED.buffer.length],
    ]);
    for (const [index, file] of (stored?.attachments ?? []).entries()) {
      const bytes = Buffer.from(await (await api.files.get(id, file.path)).arrayBuffer());
      expect(bytes.equals([PICKED, DROPPED][index]?.buffer ?? Buffer.alloc(0))).toBe(true);
    }
    await session.shot('history-02-sent');
    expect(session.pageErrors).toEqual([]);
  });
});

describe('forks', () => {
  it('FORK-20, FORK-21: forks from a message, opens the fork, says where it came from and lists it in the source', async () => {
    const answer = page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'A red picture' });
    const answerId = (await answer.getAttribute('data-message-id')) ?? '';
    await answer.getByRole('button', { name: 'Fork from here' }).click();
    const forkId = await openedThread(sourceId);

    const origin = page.locator('.thread-head .fork-origin');
    await origin.waitFor();
    expect(await origin.textContent()).toBe(
      `forked from thread ${sourceId.slice(0, 8)} at message ${answerId.slice(0, 8)}`,
    );
    expect(await origin.getByRole('link', { name: `message ${answerId.slice(0, 8)}` }).getAttribute('href')).toBe(
      `#/threads/${sourceId}?at=${answerId}`,
    );
    // The fork holds the log up to the message, the files with it.
    await userEntry(FIRST_TEXT).getByRole('link', { name: picked }).waitFor();
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'A red picture' }).waitFor();
    const details = await api.threads.get(forkId);
    expect(details.forked_from).toEqual({ thread_id: sourceId, message_id: answerId });
    expect((await log(forkId)).map((message) => message.id)).toEqual(
      (await log(sourceId)).map((message) => message.id),
    );
    await session.shot('history-03-fork');

    // Back at the source, at the message: its fork tree lists the fork, which has no forks of its own.
    await origin.getByRole('link', { name: `message ${answerId.slice(0, 8)}` }).click();
    await page.getByRole('heading', { name: `Thread ${sourceId.slice(0, 8)}` }).waitFor();
    await page.locator(`.log .highlighted[data-message-id="${answerId}"]`).waitFor();
    const tree = page.getByRole('list', { name: 'Fork tree' });
    const listed = tree.locator(`li[data-thread-id="${forkId}"]`);
    await listed.waitFor();
    expect(await listed.getByRole('link').first().getAttribute('href')).toBe(`#/threads/${forkId}`);
    await listed.getByRole('button', { name: `Forks of ${forkId.slice(0, 8)}` }).click();
    await listed.getByText('No forks.').waitFor();
    firstForkId = forkId;
  });

  it('FORK-20: refuses a fork inside a tool round, naming the nearest points, and forks at one of them', async () => {
    model.enqueue(
      {
        toolCalls: [
          { id: 'call_note', name: 'write', arguments: JSON.stringify({ path: '/note.txt', content: 'hi' }) },
        ],
      },
      { text: 'Noted.' },
    );
    await page.getByLabel('Message', { exact: true }).fill('Write a note.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Noted.' }).waitFor();
    await idle(sourceId);
    const messages = await log(sourceId);
    const round = messages.find((message) => message.tool_calls?.length) as Message;
    const result = messages.find((message) => message.role === 'tool') as Message;

    await page
      .locator(`article[data-message-id="${round.id}"] > .entry-footer`)
      .getByRole('button', { name: 'Fork from here' })
      .click();
    const refused = page.locator('.fork-refused');
    await refused.getByText(/inside a tool round/).waitFor();
    const after = refused.locator(`.fork-offer[data-at="${result.id}"]`);
    expect(await after.count()).toBe(1);
    // The point is shown in the log: the call's card, which holds the result.
    await after.getByRole('button', { name: 'Show it' }).click();
    await page.locator(`.log .highlighted[data-message-id="${result.id}"]`).waitFor();
    await session.shot('history-04-mid-round');
    await after.getByRole('button', { name: /^Fork after the round/ }).click();
    const forkId = await openedThread(sourceId);
    expect((await api.threads.get(forkId)).forked_from).toEqual({ thread_id: sourceId, message_id: result.id });
    expect((await log(forkId)).at(-1)?.id).toBe(result.id);
  });

  it('FORK-20: tells on the fork what it left behind: a child thread stays with the source', async () => {
    await page.goto(`${session.dev.url}/#/threads/${sourceId}`);
    model.enqueue(
      {
        toolCalls: [
          {
            id: 'call_task',
            name: 'task',
            arguments: JSON.stringify({ description: 'Count', prompt: 'Count to two.' }),
          },
        ],
      },
      { text: 'One, two.' },
      { text: 'The subagent counted.' },
    );
    await page.getByLabel('Message', { exact: true }).fill('Ask a subagent to count.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const answer = page
      .getByRole('article', { name: 'Assistant message' })
      .filter({ hasText: 'The subagent counted.' });
    await answer.waitFor();
    await idle(sourceId);
    const { children } = await api.threads.get(sourceId);
    expect(children).toHaveLength(1);
    const childId = children[0]?.id ?? '';

    const forked = page.waitForResponse((response) => response.url().endsWith(`/api/threads/${sourceId}/fork`));
    await answer.locator(':scope > .entry-footer').getByRole('button', { name: 'Fork from here' }).click();
    const response = await forked;
    // A refusal says why here, rather than as a page that never moves on.
    expect(response.status(), await response.text()).toBe(201);
    const forkId = await openedThread(sourceId);
    const note = page.locator('.fork-note');
    await note.waitFor();
    expect(await note.textContent()).toContain(`1 child thread (${childId.slice(0, 8)}) stays with the source thread.`);
    expect((await api.threads.get(forkId)).children).toEqual([]);
    await session.shot('history-05-not-copied');
    // Said once: the fork opened again has no note.
    await page.reload();
    await page.getByRole('heading', { name: `Thread ${forkId.slice(0, 8)}` }).waitFor();
    await page.getByText('live', { exact: true }).waitFor();
    expect(await note.count()).toBe(0);
  });
});

describe('a rewind made elsewhere', () => {
  it('shows on the open thread: the later messages leave the log, the files are as they were', async () => {
    await page.goto(`${session.dev.url}/#/threads/${sourceId}`);
    const files = page.getByRole('region', { name: 'Files' });
    await files.getByRole('link', { name: '/note.txt' }).waitFor();
    const firstAnswer = (await log(sourceId)).find((message) => message.role === 'assistant') as Message;
    // The note's write and the subagent's task came after the point: forced, knowingly.
    await api.threads.rewind(sourceId, { to: firstAnswer.id, force: true });
    await userEntry('Write a note.').waitFor({ state: 'detached' });
    await files.getByRole('link', { name: '/note.txt' }).waitFor({ state: 'detached' });
    expect(await page.locator('.log article.entry').count()).toBe(2);
    expect(session.pageErrors).toEqual([]);
  });
});

describe('editing a message', () => {
  it('FORK-20: sends the edited text and files in a new thread and leaves the original as it was', async () => {
    await page.goto(`${session.dev.url}/#/threads/${sourceId}`);
    const before = await log(sourceId);
    const original = userEntry(FIRST_TEXT);
    const box = page.getByLabel('Message', { exact: true });
    // A draft in the box comes back when the edit is cancelled.
    await box.fill('A draft.');
    await original.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await box.inputValue()).toBe(FIRST_TEXT);
    await chips().nth(1).waitFor();
    await composer().getByRole('button', { name: 'Cancel edit' }).click();
    expect(await box.inputValue()).toBe('A draft.');
    expect(await chips().count()).toBe(0);
    await original.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await box.inputValue()).toBe(FIRST_TEXT);
    // The original's files come along as chips, to keep or remove.
    await chips().nth(1).waitFor();
    expect(await chips().allTextContents()).toEqual([
      expect.stringMatching(/^picked\.png/),
      expect.stringMatching(/^dropped\.png/),
    ]);
    await composer().getByRole('button', { name: 'Remove dropped.png' }).click();
    await box.fill(EDITED_TEXT);
    model.enqueue({ text: 'Red.' });
    await page.getByRole('button', { name: 'Send as a new thread' }).click();
    const editedId = await openedThread(sourceId);

    const edited = userEntry(EDITED_TEXT);
    await edited.getByRole('link', { name: picked }).waitFor();
    expect(await edited.getByRole('link', { name: dropped }).count()).toBe(0);
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Red.' }).waitFor();
    expect(await page.locator('.thread-head .fork-origin').textContent()).toMatch(
      new RegExp(`^forked from thread ${sourceId.slice(0, 8)} `),
    );
    await idle(editedId);
    const users = (await log(editedId)).filter((message) => message.role === 'user');
    expect(users.map((message) => message.content)).toEqual([EDITED_TEXT]);
    expect(users[0]?.attachments?.map((file) => file.name)).toEqual([expect.stringMatching(picked)]);
    // The original is as it was.
    expect(await log(sourceId)).toEqual(before);
    await session.shot('history-06-edited');
    expect(session.pageErrors).toEqual([]);
  });
});

describe('hostile files on a message', () => {
  it('MSG-20: shows hostile names as text, offers a text file only as a download, and runs nothing', async () => {
    await page.goto(`${session.dev.url}/#/threads/${sourceId}`);
    await page.getByText('live', { exact: true }).waitFor();
    model.enqueue({ text: 'Three text files.' });
    await api.messages.post(sourceId, {
      content: [
        { type: 'text', text: 'Hostile files.' },
        ...INSPECTOR_MESSAGE_FILES.map((file) => ({
          type: 'file' as const,
          data: Buffer.from(file.body).toString('base64'),
          mime_type: 'text/plain',
          name: file.name,
        })),
      ],
    });
    const entry = userEntry('Hostile files.');
    const files = entry.getByRole('list', { name: 'Attached files' });
    await files
      .getByRole('listitem')
      .nth(INSPECTOR_MESSAGE_FILES.length - 1)
      .waitFor();
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Three text files.' }).waitFor();
    await idle(sourceId);
    // Each name is shown as written (the stored name, without the id that made its path unique).
    const shown = await files.locator('a.download').allTextContents();
    expect(shown).toEqual(INSPECTOR_MESSAGE_FILES.map((file) => file.name));
    // Text files get no thumbnail, nothing is built from their names or bytes, nothing ran.
    expect(await files.locator('img').count()).toBe(0);
    expect(await page.locator('.log img:not(.thumbnail)').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(session.pageErrors).toEqual([]);
  });
});

describe('a narrow screen', () => {
  it('MSG-20, FORK-21: fits a 390 px wide screen: the log with files, the composer with chips, the fork tree', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${session.dev.url}/#/threads/${sourceId}`);
      await page.reload();
      await userEntry(FIRST_TEXT).getByRole('link', { name: picked }).waitFor();
      // The file named with one long word wraps.
      await userEntry('Hostile files.')
        .getByRole('link', { name: /^w+\.txt$/ })
        .waitFor();
      await pick(PICKED);
      // A screenshot pasted in the message box (a file on the clipboard with no name) joins them.
      await pasteImage(DROPPED.buffer);
      expect(await chips().allTextContents()).toEqual([
        expect.stringMatching(/^picked\.png/),
        expect.stringMatching(/^pasted\.png/),
      ]);
      // A fork of a fork is one level down in the tree, opened in place.
      const answer = (await log(firstForkId)).at(-1) as Message;
      const { thread: nested } = await api.threads.fork(firstForkId, { at: answer.id });
      await page.getByRole('button', { name: 'Refresh forks' }).click();
      const first = page.getByRole('list', { name: 'Fork tree' }).locator(`li[data-thread-id="${firstForkId}"]`);
      await first.getByRole('button', { name: `Forks of ${firstForkId.slice(0, 8)}` }).click();
      await first
        .getByRole('list', { name: `Forks of ${firstForkId}` })
        .getByRole('link')
        .waitFor();
      expect(await first.locator(`li[data-thread-id="${nested.id}"] a`).getAttribute('href')).toBe(
        `#/threads/${nested.id}`,
      );
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await session.shot('history-07-narrow');
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });
});
