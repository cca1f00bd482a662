/**
 * The Usage page as a person uses it, in Chromium against a real `wrangler dev` (one for the file):
 * after a thread's turn, the page reached from the top bar shows the turn's model steps in a row of
 * the table, by user, agent and model, with their tokens and the totals; grouping by day instead
 * gives today's row, and a range before today none. Screenshots go to test-output/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../client/index.js';
import type { OpenAIServer } from '../../harness/openai-server.mjs';
import { type InspectorSession, signIn, startInspectorSession, until } from '../support/inspector-browser.js';

let session: InspectorSession;
let page: Page;
let api: Client;
let model: OpenAIServer;

const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  session = await startInspectorSession();
  ({ page, api, model } = session);
});

afterAll(async () => {
  await session?.close();
});

beforeEach(({ onTestFailed }) => {
  model.reset();
  onTestFailed(() => console.error(`wrangler dev output (the end):\n${session?.devOutput()}`));
});

/** The cells of a table row as text. */
async function cells(row: ReturnType<Page['locator']>): Promise<string[]> {
  return (await row.locator('th, td').allInnerTexts()).map((text) => text.trim());
}

describe('the Usage page', () => {
  it("shows a thread's turn as a row of tokens by user, agent and model, and the totals", async () => {
    model.enqueue({ text: 'Counted.', usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 } });
    const { id } = await api.threads.create({ agent: 'assistant', messages: [{ content: 'Count this turn' }] });
    await until(
      () => api.threads.get(id),
      (thread) => thread.status === 'idle' && thread.usage.thread.steps === 1,
      'the turn to end',
    );
    // The thread reports its steps after the turn: the API has them before the page is opened.
    const report = await until(
      () => api.usage.get({ groupBy: ['user', 'agent', 'model'] }),
      (answer) => answer.totals.steps >= 1,
      'the usage report',
    );
    const user = report.rows[0]?.user ?? '';

    await signIn(page, session.dev.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const table = page.locator('table.usage-report');
    const row = table.locator('tbody tr').filter({ hasText: 'assistant' });
    await row.waitFor();
    expect(await cells(table.locator('thead tr'))).toEqual([
      'User',
      'Agent',
      'Model',
      'Input tokens',
      'Cached',
      'Output tokens',
      'Total tokens',
      'Steps',
      'Cost',
    ]);
    expect(await cells(row)).toEqual([user, 'assistant', 'default', '1,234', '0', '56', '1,290', '1', '$0']);
    expect(await cells(table.locator('tfoot tr'))).toEqual(['Totals', '1,234', '0', '56', '1,290', '1', '$0']);
    await session.shot('usage-01-by-user-agent-model');

    // By day alone: today's row.
    const form = page.getByRole('form', { name: 'Usage range' });
    for (const name of ['User', 'Agent', 'Model']) await form.getByLabel(name, { exact: true }).uncheck();
    await form.getByLabel('Day', { exact: true }).check();
    await form.getByRole('button', { name: 'Show' }).click();
    await table.locator('thead th', { hasText: 'Day' }).waitFor();
    expect(await cells(table.locator('tbody tr').first())).toEqual([today, '1,234', '0', '56', '1,290', '1', '$0']);

    // A range before today: no row.
    await form.getByLabel('To', { exact: true }).fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    await form.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('status').filter({ hasText: 'No model steps in this range.' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(0);
    expect(session.pageErrors).toEqual([]);
  });
});
