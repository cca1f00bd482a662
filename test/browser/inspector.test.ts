/**
 * The inspector page in a real browser (Chromium through playwright-core) against a real
 * `wrangler dev` serving the example agents, whose model is a local OpenAI-compatible server each
 * test scripts step by step. Every step is done on the page as a person would (sign in, start a
 * thread, post, answer, follow a link) and checked twice: on the page, and through the API with the
 * client library. A screenshot of each step lands in test-output/screenshots/.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../client/index.js';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../harness/mcp-servers.mjs';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import type { WranglerDev } from '../../harness/wrangler-dev.mjs';
import {
  type DataServer,
  type InspectorSession,
  KEY,
  startInspectorSession,
  until,
} from '../support/inspector-browser.js';

const SEARCH_ARGS = { query: 'websocket stream', limit: 2 };
const STREAMED_ANSWER =
  'To follow a thread, open its WebSocket on /api/threads/:id/stream and reconnect with ?after=<seq>.';

let session: InspectorSession;
let model: OpenAIServer;
/** An MCP server behind OAuth, for the units agent's server. */
let oauth: OAuthMcpServer;
let dev: WranglerDev;
let api: Client;
let context: BrowserContext;
let page: Page;
/** The local JSON service fetch_data reads, with the paths it was asked for. */
let data: DataServer;
let pageErrors: string[];

function shot(name: string): Promise<Buffer> {
  return session.shot(name);
}

/** A tool call's article in the log. */
function toolCall(name: string): Locator {
  return page.getByRole('article', { name: `Tool call ${name}` });
}

/** Waits until a tool call's article shows it ended with `state`. */
function ended(call: Locator, state: 'success' | 'error'): Promise<void> {
  return call.and(page.locator(`[data-state="${state}"]`)).waitFor();
}

/** Opens the threads screen, starts a thread of `agent` from the page and returns its id. */
async function createThread(agent: string, firstMessage = ''): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  const select = page.getByLabel('Agent', { exact: true });
  await select.locator(`option[value="${agent}"]`).waitFor({ state: 'attached' });
  await select.selectOption(agent);
  if (firstMessage) await page.getByLabel('First message').fill(firstMessage);
  await page.getByRole('button', { name: 'Create thread' }).click();
  await page.waitForURL(/#\/threads\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).hash.split('/').pop() ?? '';
  await page.getByRole('heading', { name: `Thread ${id.slice(0, 8)}` }).waitFor();
  await page.getByText('live', { exact: true }).waitFor();
  return id;
}

async function post(content: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(content);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The thread's status once it is no longer running. */
async function settled(id: string) {
  return until(
    () => api.threads.get(id),
    (thread) => thread.status !== 'running',
    `thread ${id} to finish its turn`,
  );
}

beforeAll(async () => {
  oauth = await startOAuthMcpServer();
  session = await startInspectorSession({
    // The OAuth MCP server is a development host.
    allowHosts: [new URL(oauth.origin).host],
    // The one refused request is the wrong key the sign-in test tries on purpose.
    expectedConsoleErrors: ['status of 401'],
  });
  ({ model, dev, api, context, page, data, pageErrors } = session);
});

afterAll(async () => {
  await session?.close();
  await oauth?.close();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.error(`wrangler dev output (the end):\n${session?.devOutput()}`);
  });
});

describe('the inspector page', () => {
  it('is served at / to browsers while the Worker keeps answering the API and JSON clients', async () => {
    const html = await fetch(`${dev.url}/`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(await html.text()).toContain('<title>Standard Agents inspector</title>');

    const index = await fetch(`${dev.url}/`, { headers: { accept: 'application/json' } });
    expect(await index.json()).toMatchObject({ openapi: '/openapi.json', mcp: '/mcp' });

    const script = await fetch(`${dev.url}/app.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');

    // The page and the assets wrangler serves without the Worker (inspector/public/_headers) are
    // hardened alike; the page's own policy refusing anything it needs would show in pageErrors.
    for (const response of [html, script, await fetch(`${dev.url}/style.css`)]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    }

    const refused = await fetch(`${dev.url}/api/agents`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('signs in with a key, refusing a wrong one, and keeps it for the tab only', async () => {
    await page.goto(`${dev.url}/?key=not-a-key`);
    const key = page.getByLabel('API key');
    expect(await key.inputValue()).toBe('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'This key was refused.' }).waitFor();
    await shot('01-sign-in-refused');

    await key.fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Threads', level: 1 }).waitFor();
    // The page's own global, read in the page (this file is compiled without the DOM's types).
    expect(await page.evaluate("sessionStorage.getItem('standard-agents.inspector.key')")).toBe(KEY);
    expect(new URL(page.url()).search).toBe('');
    await page.getByText('No threads match.').waitFor();
    await shot('02-threads-empty');
  });

  it('starts an assistant thread and streams a tool call, its arguments, result and the answer', async () => {
    const id = await createThread('assistant');
    model.reset();
    model.enqueue(
      {
        toolCalls: [{ id: 'call_search', name: 'search_knowledge_base', arguments: JSON.stringify(SEARCH_ARGS) }],
        usage: { prompt_tokens: 310, completion_tokens: 41, total_tokens: 351 },
      },
      {
        text: STREAMED_ANSWER,
        chunkSize: 4,
        chunkDelayMs: 60,
        usage: { prompt_tokens: 455, completion_tokens: 29, total_tokens: 484 },
      },
    );
    await post('How do I stream a thread? Search the docs.');

    const call = toolCall('search_knowledge_base');
    await call.waitFor();
    await call.getByText('"query": "websocket stream"').waitFor();
    // The answer streams in: part of it is on the page before the message is complete.
    const streaming = page.locator('.log .streaming .text');
    await streaming.waitFor();
    const partial = (await streaming.textContent()) ?? '';
    expect(STREAMED_ANSWER.startsWith(partial)).toBe(true);
    await shot('03-streaming');

    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: STREAMED_ANSWER }).waitFor();
    await ended(call, 'success');
    expect(await call.getByRole('status').textContent()).toBe('success');
    expect(await call.getByRole('region', { name: 'Result' }).textContent()).toContain('Streaming');
    expect(await call.textContent()).toMatch(/took \d+ ms/);
    // Both steps' usage, from the usage frames.
    const usage = page.getByRole('table', { name: 'Token usage' });
    const total = usage.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total' }) });
    await until(
      () => total.getByRole('cell').first().textContent(),
      (text) => text === '835',
      "the thread's total tokens",
    );
    await page.getByRole('status', { name: 'Thread status' }).getByText('idle').waitFor();
    await shot('04-tool-call-done');

    const thread = await settled(id);
    expect(thread).toMatchObject({ status: 'idle', last_error: null, agent: 'assistant' });
    expect(thread.usage.thread.total_tokens).toBe(835);
    const { messages } = await api.messages.list(id);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[1]?.tool_calls?.[0]?.function).toEqual({
      name: 'search_knowledge_base',
      arguments: JSON.stringify(SEARCH_ARGS),
    });
    expect(messages[2]).toMatchObject({ tool_call_id: 'call_search', tool_status: 'success' });
    expect(messages[3]?.content).toBe(STREAMED_ANSWER);
  });

  it('answers a workspace question from the page', async () => {
    model.reset();
    const questions = [
      {
        question: 'Which language should the project use?',
        header: 'Language',
        options: [
          { label: 'TypeScript', description: 'Typed JavaScript, runs on Workers as is' },
          { label: 'Rust', description: 'Compiled to WebAssembly' },
        ],
      },
    ];
    model.enqueue(
      { toolCalls: [{ id: 'call_question', name: 'question', arguments: JSON.stringify({ questions }) }] },
      { text: 'TypeScript it is.' },
    );
    const id = await createThread('workspace', 'Set up a new project for me.');

    const waits = page.getByRole('region', { name: 'Waiting for an answer' });
    await waits.getByRole('radio', { name: 'TypeScript' }).waitFor();
    await toolCall('question').getByText('waiting: question').waitFor();
    expect(await waits.getByRole('group').first().textContent()).toContain('Which language should the project use?');
    await shot('05-question');
    const waiting = await api.threads.get(id);
    expect(waiting.waiting_for).toMatchObject([{ tool_call_id: 'call_question', kind: 'question' }]);

    await waits.getByRole('radio', { name: 'TypeScript' }).check();
    await waits.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'TypeScript it is.' }).waitFor();
    await waits.waitFor({ state: 'hidden' });
    await ended(toolCall('question'), 'success');
    expect(await toolCall('question').getByRole('region', { name: 'Result' }).textContent()).toContain('TypeScript');
    await shot('06-question-answered');

    const thread = await settled(id);
    expect(thread).toMatchObject({ status: 'idle', waiting_for: [] });
    const { messages } = await api.messages.list(id);
    const answer = messages.find((message) => message.tool_call_id === 'call_question');
    expect(JSON.parse(answer?.content ?? '{}')).toEqual({ answers: [['TypeScript']] });
    // The model's next request carried the answer.
    const sent = model.requests.at(-1)?.body?.messages ?? [];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_question' });
  });

  it('approves one fetch_data call and rejects another with a reason', async () => {
    model.reset();
    data.requested.length = 0;
    model.enqueue(
      {
        toolCalls: [
          {
            id: 'call_fetch_1',
            name: 'fetch_data',
            arguments: JSON.stringify({ endpoint: `${data.url}/weather.json` }),
          },
        ],
      },
      { text: 'It is 21 °C and clear in Lisbon.' },
    );
    const id = await createThread('assistant');
    await post(`Read the weather from ${data.url}/weather.json`);

    const waits = page.getByRole('region', { name: 'Waiting for an answer' });
    await waits.getByRole('button', { name: 'Approve', exact: true }).waitFor();
    expect(await waits.textContent()).toContain('/weather.json');
    await shot('07-approval');
    expect(data.requested).toEqual([]);
    await waits.getByRole('button', { name: 'Approve', exact: true }).click();

    const first = page.locator('[data-call-id="call_fetch_1"]').and(toolCall('fetch_data'));
    await ended(first, 'success');
    expect(await first.getByRole('region', { name: 'Result' }).textContent()).toContain('"temperature_c": 21');
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: '21 °C' }).waitFor();
    expect(data.requested).toEqual(['/weather.json']);
    // IDN-10: the call names who approved it.
    expect(await first.textContent()).toMatch(/Approved by u_[0-9a-f]{32} \(approver\)/);
    await settled(id);

    model.enqueue(
      {
        toolCalls: [
          {
            id: 'call_fetch_2',
            name: 'fetch_data',
            arguments: JSON.stringify({ endpoint: `${data.url}/private.json` }),
          },
        ],
      },
      { text: 'Understood, I will not read it.' },
    );
    await post(`Now read ${data.url}/private.json`);
    await waits.getByRole('button', { name: 'Reject' }).waitFor();
    await waits.getByLabel('Reason').fill('that file is private');
    await waits.getByRole('button', { name: 'Reject' }).click();

    const second = page.locator('[data-call-id="call_fetch_2"]').and(toolCall('fetch_data'));
    await ended(second, 'error');
    expect(await second.getByRole('region', { name: 'Result' }).textContent()).toContain('that file is private');
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'I will not read it' }).waitFor();
    await shot('08-approval-rejected');
    expect(await second.textContent()).toMatch(/Refused by u_[0-9a-f]{32} \(approver\)/);

    expect(data.requested).toEqual(['/weather.json']);
    await settled(id);
    const { messages } = await api.messages.list(id);
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => [message.tool_call_id, message.tool_status])).toEqual([
      ['call_fetch_1', 'success'],
      ['call_fetch_2', 'error'],
    ]);
    expect(results[1]?.content).toContain('The user rejected the call to tool "fetch_data": that file is private.');
  });

  it('shows the subagent tree of a task and follows its link to the child thread', async () => {
    model.reset();
    model.enqueue(
      // The parent hands the work to a subagent...
      {
        toolCalls: [
          {
            id: 'call_task',
            name: 'task',
            arguments: JSON.stringify({ description: 'Count words', prompt: 'Count the words in "one two three".' }),
          },
        ],
      },
      // ...which answers in its own thread...
      { text: 'There are 3 words.' },
      // ...and the parent reports its answer.
      { text: 'The subagent counted 3 words.' },
    );
    const parentId = await createThread('workspace', 'How many words are in "one two three"? Use a subagent.');

    await page
      .getByRole('article', { name: 'Assistant message' })
      .filter({ hasText: 'The subagent counted' })
      .waitFor();
    const tree = page.getByRole('list', { name: 'Subagent tree' });
    const link = tree.getByRole('link', { name: /workspace · Count words/ });
    await link.waitFor();
    await ended(toolCall('task'), 'success');
    expect(await toolCall('task').getByRole('region', { name: 'Result' }).textContent()).toContain(
      'There are 3 words.',
    );
    await shot('09-subagent-tree');

    const parent = await settled(parentId);
    expect(parent.children).toHaveLength(1);
    const childId = parent.children[0]?.id ?? '';
    expect(await link.getAttribute('href')).toBe(`#/threads/${childId}`);

    await link.click();
    await page.waitForURL(new RegExp(`#/threads/${childId}$`));
    await page.getByRole('heading', { name: `Thread ${childId.slice(0, 8)}` }).waitFor();
    await page.getByRole('article', { name: 'User message' }).filter({ hasText: 'Count the words' }).waitFor();
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'There are 3 words.' }).waitFor();
    const back = page.getByRole('link', { name: `parent thread ${parentId.slice(0, 8)}` });
    expect(await back.getAttribute('href')).toBe(`#/threads/${parentId}`);
    await shot('10-child-thread');

    const child = await api.threads.get(childId);
    expect(child).toMatchObject({ parent_id: parentId, agent: 'workspace', status: 'idle' });
    expect(child.tags).toContain('task:Count words');

    await back.click();
    await page.getByRole('heading', { name: `Thread ${parentId.slice(0, 8)}` }).waitFor();
  });

  it('lists the files a tool wrote and downloads one', async () => {
    model.reset();
    const content = '# Todo\n\n- ship the inspector\n';
    model.enqueue(
      {
        toolCalls: [
          { id: 'call_write', name: 'write', arguments: JSON.stringify({ path: '/notes/todo.md', content }) },
        ],
      },
      { text: 'Written to /notes/todo.md.' },
    );
    const id = await createThread('workspace');
    await post('Write my todo list.');
    await ended(toolCall('write'), 'success');

    const files = page.getByRole('region', { name: 'Files' });
    await files.getByText('notes/').click();
    const link = files.getByRole('link', { name: '/notes/todo.md' });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('todo.md');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path, 'utf8')).toBe(content);
    await shot('11-files');

    const listing = await api.files.list(id, '/notes');
    expect(listing.entries).toMatchObject([{ path: '/notes/todo.md', kind: 'file' }]);
  });

  it('EFF-6: lists the effect a tool scheduled in the Effects panel and cancels it there', async () => {
    model.reset();
    model.enqueue(
      {
        toolCalls: [
          {
            id: 'call_remind',
            name: 'remind_me',
            arguments: JSON.stringify({ note: 'water the plants', minutes: 60 }),
          },
        ],
      },
      { text: 'I will remind you in an hour.' },
    );
    const id = await createThread('workspace');
    await post('Remind me to water the plants in an hour.');
    await ended(toolCall('remind_me'), 'success');

    const effects = page.getByRole('region', { name: 'Effects' });
    const row = effects.getByRole('listitem').filter({ hasText: 'send_reminder' });
    await row.getByText('pending').waitFor();
    await shot('12-effects');
    await row.getByRole('button', { name: 'Cancel send_reminder' }).click();
    await row.getByText('cancelled').waitFor();
    const listed = await api.effects.list(id);
    expect(listed.effects).toMatchObject([
      { name: 'send_reminder', status: 'cancelled', args: { note: 'water the plants' } },
    ]);
  });

  it("SCHED-1: lists a thread's schedule in the Schedules panel, pauses it there and deletes it", async () => {
    const id = await createThread('assistant');
    await api.schedules.create(id, {
      name: 'morning digest',
      cron: '0 9 * * *',
      timezone: 'Europe/Paris',
      message: 'Digest, please.',
    });
    const schedules = page.getByRole('region', { name: 'Schedules' });
    await schedules.getByRole('button', { name: 'Refresh schedules' }).click();
    const row = schedules.getByRole('listitem').filter({ hasText: 'morning digest' });
    await row.getByText('cron 0 9 * * * (Europe/Paris)', { exact: false }).waitFor();
    await shot('12-schedules');
    await row.getByRole('button', { name: 'Pause morning digest' }).click();
    await row.getByRole('button', { name: 'Resume morning digest' }).waitFor();
    expect((await api.schedules.list(id)).schedules).toMatchObject([{ name: 'morning digest', paused: true }]);
    await row.getByRole('button', { name: 'Delete morning digest' }).click();
    await schedules.getByText('No schedules.').waitFor();
    expect((await api.schedules.list(id)).schedules).toEqual([]);
  });

  it('SCHED-7: the Schedules page lists a schedule that starts threads, pauses it and deletes it', async () => {
    const made = await api.tenantSchedules.create({
      name: 'weekly report',
      agent: 'assistant',
      cron: '0 8 * * 1',
      timezone: 'America/New_York',
      message: 'Write the weekly report.',
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
    await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Schedule weekly report' });
    await card
      .getByText('starts a thread of assistant · cron 0 8 * * 1 (America/New_York)', { exact: false })
      .waitFor();
    await shot('12-tenant-schedules');
    await card.getByRole('button', { name: 'Pause weekly report' }).click();
    await card.getByRole('button', { name: 'Resume weekly report' }).waitFor();
    expect((await api.tenantSchedules.list()).schedules.find((s) => s.id === made.id)?.paused).toBe(true);
    await card.getByRole('button', { name: 'Delete weekly report' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await api.tenantSchedules.list()).schedules.map((s) => s.id)).not.toContain(made.id);
  });

  it('stops a running turn', async () => {
    model.reset();
    // The model starts an answer, then goes silent: the turn runs until it is stopped.
    model.enqueue({ text: 'Let me think about this for a very long time...', chunkSize: 8, stallAfter: 3 });
    const id = await createThread('assistant');
    await post('Take your time.');
    const stop = page.getByRole('button', { name: 'Stop' });
    await page.getByRole('status', { name: 'Thread status' }).getByText('running').waitFor();
    await page.locator('.log .streaming').waitFor();
    await shot('12-running');
    await stop.click();

    const thread = await settled(id);
    expect(thread.status).not.toBe('running');
    await page.getByRole('status', { name: 'Thread status' }).getByText(thread.status).waitFor();
    await until(
      () => stop.isDisabled(),
      (disabled) => disabled,
      'the Stop button to be disabled',
    );
    await until(
      async () => model.requests.at(-1)?.closedEarly,
      (closed) => closed === true,
      'the model request to be cut',
    );
    await shot('13-stopped');
  });

  it('authorizes an MCP server in a new window of this browser, the only one that can complete it', async () => {
    model.reset();
    model.enqueue(
      { toolCalls: [{ id: 'call_connect', name: 'units__connect', arguments: '{}' }] },
      { text: 'The units server is connected.' },
    );
    // The units agent's server, here one behind OAuth.
    const { id } = await api.threads.create({ agent: 'units', variables: { UNITS_MCP_URL: oauth.url } });
    await page.goto(`${dev.url}/#/threads/${id}`);
    await page.getByRole('heading', { name: `Thread ${id.slice(0, 8)}` }).waitFor();
    await page.getByText('live', { exact: true }).waitFor();
    await post('Connect to the units server.');

    const waits = page.getByRole('region', { name: 'Waiting for an answer' });
    const authorize = waits.getByRole('button', { name: 'Authorize units' });
    await authorize.waitFor();
    expect(await waits.textContent()).toContain(oauth.origin);
    await shot('13b-mcp-authorization');
    // The page asks for a one-time link with its key and opens it in a new window: the link sets
    // the cookie, the authorization server approves and sends that window back to the callback.
    const [popup] = await Promise.all([context.waitForEvent('page'), authorize.click()]);
    await popup.getByRole('heading', { name: 'Authorized' }).waitFor();
    expect(new URL(popup.url()).pathname).toBe('/oauth/mcp/callback');
    await session.shot('13c-mcp-authorized-window', popup);
    await popup.close();

    await ended(toolCall('units__connect'), 'success');
    await waits.waitFor({ state: 'hidden' });
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'is connected' }).waitFor();
    await shot('13d-mcp-authorized');
    // The callback cleared the cookie that bound the authorization to this browser.
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('mcp-oauth'))).toEqual([]);

    expect(await settled(id)).toMatchObject({ status: 'idle', waiting_for: [] });
    const { messages } = await api.messages.list(id);
    expect(messages.find((message) => message.tool_call_id === 'call_connect')).toMatchObject({
      tool_status: 'success',
    });
    expect(
      oauth.tokenRequests.some((request) => request.grantType === 'authorization_code' && request.pkceVerified),
    ).toBe(true);
  });

  it('lists the threads with filters', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
    const table = page.getByRole('table', { name: 'Your threads' });
    await table.getByRole('row').nth(1).waitFor();
    const all = await api.threads.list();
    await until(
      () => table.getByRole('row').count(),
      (rows) => rows === all.threads.length + 1,
      'a row per thread',
    );

    await page.getByLabel('Filter by agent').selectOption('assistant');
    const assistants = all.threads.filter((thread) => thread.agent === 'assistant').length;
    await until(
      () => table.getByRole('row').count(),
      (rows) => rows === assistants + 1,
      'a row per assistant thread',
    );
    await page.getByLabel('Filter by agent').selectOption('');
    await page.getByLabel('Filter by tag').fill('task:Count words');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(
      () => table.getByRole('row').count(),
      (rows) => rows === 2,
      'the one child thread',
    );
    await shot('14-thread-list-filtered');
  });

  it('logged no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
