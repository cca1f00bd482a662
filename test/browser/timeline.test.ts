/**
 * The timeline of a thread's turns in Chromium against a real `wrangler dev` (the example agents,
 * their model a scripted local server). One turn of the workspace agent writes a file, fails to
 * read another and hands a question to a subagent with task; when the turn ends the timeline shows
 * it, and opened it is a waterfall of the turn's spans with their durations and usage, the failed
 * call marked with why, the subagent's call opening the child thread's own turn in place, and a
 * span's name showing its entry in the log. Checked against the spans the API serves; screenshots
 * go to test-output/screenshots/timeline-*.png.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client, Span } from '../../client/index.js';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import { type InspectorSession, signIn, startInspectorSession, until } from '../support/inspector-browser.js';

let session: InspectorSession;
let page: Page;
let api: Client;
let model: OpenAIServer;
/** The thread the first test runs a turn in; the narrow-screen test opens it again. */
let threadId = '';

beforeAll(async () => {
  session = await startInspectorSession();
  ({ page, api, model } = session);
});

afterAll(async () => {
  await session?.close();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.error(`wrangler dev output (the end):\n${session?.devOutput()}`));
});

/** The row of a span in `within`, by its name (the first, or the one holding `text`). */
function row(within: Locator, name: string): Locator {
  return within.locator(`li.span-row[data-span-name="${name}"]`);
}

/** The rows of one waterfall level and below, the child threads' left out. */
function ownRows(turn: Locator): Locator {
  return turn.locator('li.span-row:not(.span-child li.span-row)');
}

function scriptTurn(): void {
  model.enqueue(
    // The parent writes a file and reads one that is not there (a failed call)...
    {
      toolCalls: [
        { id: 'call_write', name: 'write', arguments: JSON.stringify({ path: '/words.txt', content: 'one two' }) },
        { id: 'call_read', name: 'read', arguments: JSON.stringify({ path: '/missing.txt' }) },
      ],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    },
    // ...hands the counting to a subagent...
    {
      toolCalls: [
        {
          id: 'call_task',
          name: 'task',
          arguments: JSON.stringify({ description: 'Count words', prompt: 'Count the words in /words.txt.' }),
        },
      ],
    },
    // ...which answers in its own thread...
    { text: 'There are 2 words.' },
    // ...and the parent reports.
    { text: 'The subagent counted 2 words.' },
  );
}

describe('the timeline of a turn', () => {
  it('TL-2, TL-3, TL-4: shows the turn as a waterfall, opens the child thread in place and shows a span in the log', async () => {
    const { id } = await api.threads.create({ agent: 'workspace' });
    threadId = id;
    await signIn(page, session.dev.url);
    await page.goto(`${session.dev.url}/#/threads/${id}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('No turns recorded yet.').waitFor();

    scriptTurn();
    await page.getByLabel('Message', { exact: true }).fill('How many words are in /words.txt? Use a subagent.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('article', { name: 'Assistant message' })
      .filter({ hasText: 'The subagent counted' })
      .waitFor();

    // The turn's end refreshes the timeline: one turn, closed, summing its model steps (the turn's and
    // the one the subagent's answer resumed), with its failed call counted. The spans are stored by
    // the time the thread is idle; the summary waited for is the one drawn from all of them.
    await until(
      () => api.threads.get(id),
      (thread) => thread.status === 'idle',
      'the turn to end',
    );
    const { spans } = await api.spans.list(id);
    const traceId = spans[0]?.trace_id ?? '';
    expect(spans.every((span) => span.trace_id === traceId)).toBe(true);
    const steps = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const tokens = steps.reduce(
      (sum, span) =>
        sum +
        Number(span.attributes['gen_ai.usage.input_tokens'] ?? 0) +
        Number(span.attributes['gen_ai.usage.output_tokens'] ?? 0),
      0,
    );
    const turn = timeline.locator('details.turn');
    const summary = turn.locator('summary', { hasText: ` · ${tokens.toLocaleString('en-US')} tokens` });
    await summary.waitFor();
    expect(await turn.count()).toBe(1);
    expect(await turn.getAttribute('data-trace-id')).toBe(traceId);
    expect(await summary.textContent()).toMatch(/^invoke_agent workspace .* · 1 error$/);

    await summary.click();
    await row(turn, 'invoke_agent workspace').first().waitFor();
    // Every span of the parent's trace is a row, nested as the spans are.
    expect(await ownRows(turn).count()).toBe(spans.length);
    const names = await ownRows(turn).evaluateAll((rows) => rows.map((each) => each.getAttribute('data-span-name')));
    expect(names.filter((name) => name?.startsWith('chat '))).toHaveLength(3);
    for (const name of ['invoke_agent workspace', 'execute_tool write', 'execute_tool read', 'execute_tool task'])
      expect(names).toContain(name);
    const top = row(turn, 'invoke_agent workspace').first();
    expect(await top.locator(':scope > ol > li.span-row').count()).toBe(
      spans.filter((span) => span.parent_span_id === spans.find((s) => s.name === 'invoke_agent workspace')?.span_id)
        .length,
    );

    // Each row says how long it took; the model steps and the turn what they used.
    for (const each of await ownRows(turn).all())
      expect(await each.locator(':scope > .span-line > .span-duration').textContent()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    const firstChat = ownRows(turn).and(page.locator('[data-span-name^="chat "]')).first();
    // The example's model has no prices: the step's tokens, and no cost.
    expect(await firstChat.locator(':scope > .span-line > .span-usage').textContent()).toBe('120 in · 30 out');
    expect(await top.locator(':scope > .span-line > .span-usage').textContent()).toMatch(/^\d[\d,]* in · \d[\d,]* out/);

    // The failed call is marked with why it failed, as the API records it.
    const read = row(turn, 'execute_tool read');
    const failed = spans.find((span) => span.name === 'execute_tool read') as Span;
    expect(failed.status).toBe('error');
    expect(await read.getAttribute('class')).toContain('span-error');
    expect(await read.locator('.span-failure').textContent()).toBe(failed.status_message);

    // The subagent's call opens the child thread's own turn in place, read on demand.
    const task = row(turn, 'execute_tool task');
    const childId = String(
      spans.find((span) => span.name === 'execute_tool task')?.attributes['standard_agents.child_thread.id'],
    );
    const expand = task.getByRole('button', { name: `child ${childId.slice(0, 8)}` });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    await expand.click();
    const child = task.locator('.span-child');
    await row(child, 'invoke_agent workspace').waitFor();
    expect(await expand.getAttribute('aria-expanded')).toBe('true');
    const childSpans = (await api.spans.list(childId, { traceId })).spans;
    expect(childSpans.map((span) => span.trace_id)).toEqual(childSpans.map(() => traceId));
    expect(childSpans.find((span) => span.name === 'invoke_agent workspace')?.parent_span_id).toBe(
      spans.find((span) => span.name === 'execute_tool task')?.span_id,
    );
    expect(await child.locator('li.span-row').count()).toBe(childSpans.length);
    expect(
      await child.getByRole('link', { name: `Open child thread ${childId.slice(0, 8)}` }).getAttribute('href'),
    ).toBe(`#/threads/${childId}`);
    await session.shot('timeline-01-waterfall');

    // A span's name shows its entry in the log: the last model step its answer, a call its card.
    const lastChat = ownRows(turn).and(page.locator('[data-span-name^="chat "]')).last();
    await lastChat.locator(':scope > .span-line .span-name').click();
    const answer = page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'The subagent counted' });
    await answer.and(page.locator('.highlighted')).waitFor();
    const answerId = await answer.getAttribute('data-message-id');
    expect(spans.find((span) => span.attributes['standard_agents.message.id'] === answerId)?.span_id).toBe(
      await lastChat.getAttribute('data-span-id'),
    );

    await read.locator(':scope > .span-line .span-name').click();
    const readCard = page.getByRole('article', { name: 'Tool call read' });
    await readCard.and(page.locator('.highlighted')).waitFor();
    expect(await page.locator('.log .highlighted').count()).toBe(1);
    await session.shot('timeline-02-log-entry');
    expect(session.pageErrors).toEqual([]);
  });

  it('TL-2: fits a 390 px wide screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${session.dev.url}/#/threads/${threadId}`);
      await page.reload();
      const turn = page.getByRole('region', { name: 'Timeline' }).locator('details.turn');
      await turn.locator('summary').click();
      await row(turn, 'execute_tool task')
        .getByRole('button', { name: /^child / })
        .click();
      await row(turn.locator('.span-child'), 'invoke_agent workspace').waitFor();
      await turn.scrollIntoViewIfNeeded();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await session.shot('timeline-03-narrow');
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
    expect(session.pageErrors).toEqual([]);
  });
});
