/**
 * The Usage page (`#/usage`): what models cost, by who spent it (`GET /api/usage`). A range of UTC
 * days (the last 30 at first) and the dimensions to group by (user, agent, model, day) give a table
 * of tokens, steps and cost, dearest first, with the totals below it. An admin's key sees the
 * tenant's usage; any other key only its own.
 */
import type { UsageDimension, UsageReport } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { field, h, replace } from './dom.js';
import { count, dollars } from './format.js';
import type { Screen } from './thread-view.js';

const DIMENSIONS: readonly { name: UsageDimension; label: string }[] = [
  { name: 'user', label: 'User' },
  { name: 'agent', label: 'Agent' },
  { name: 'model', label: 'Model' },
  { name: 'day', label: 'Day' },
];

type Numbers = UsageReport['totals'];

const NUMBERS: readonly [string, (numbers: Numbers) => string][] = [
  ['Input tokens', (numbers) => count(numbers.input_tokens)],
  ['Cached', (numbers) => count(numbers.cached_tokens)],
  ['Output tokens', (numbers) => count(numbers.output_tokens)],
  ['Total tokens', (numbers) => count(numbers.total_tokens)],
  ['Steps', (numbers) => count(numbers.steps)],
  ['Cost', (numbers) => dollars(numbers.cost_usd)],
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function table(report: UsageReport): HTMLElement {
  const dimensions = DIMENSIONS.filter((dimension) => report.group_by.includes(dimension.name));
  const numbers = (values: Numbers) => NUMBERS.map(([, show]) => h('td', {}, show(values)));
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'usage usage-report' },
      h('caption', { class: 'muted' }, `Usage from ${report.from} to ${report.to} (UTC)`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          dimensions.length === 0 ? h('th', { scope: 'col', class: 'dimension' }, 'Usage') : null,
          dimensions.map((dimension) => h('th', { scope: 'col', class: 'dimension' }, dimension.label)),
          NUMBERS.map(([label]) => h('th', { scope: 'col' }, label)),
        ),
      ),
      h(
        'tbody',
        {},
        report.rows.map((row) =>
          h(
            'tr',
            {},
            dimensions.length === 0 ? h('td', { class: 'dimension' }, 'All') : null,
            dimensions.map((dimension) => h('td', { class: 'dimension' }, row[dimension.name] || '—')),
            numbers(row),
          ),
        ),
      ),
      h(
        'tfoot',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'row', class: 'dimension', colspan: Math.max(dimensions.length, 1) }, 'Totals'),
          numbers(report.totals),
        ),
      ),
    ),
  );
}

function checkbox(name: UsageDimension, checked: boolean): HTMLInputElement {
  return h('input', { type: 'checkbox', name: 'group_by', value: name, checked });
}

export function usageScreen(api: Api): Screen {
  const now = Date.now();
  const from = h('input', { type: 'date', value: isoDay(now - 29 * 86_400_000), required: true });
  const to = h('input', { type: 'date', value: isoDay(now), required: true });
  const boxes = DIMENSIONS.map((dimension) => ({
    dimension,
    input: checkbox(dimension.name, dimension.name !== 'day'),
  }));
  const result = h('div', { class: 'usage-result' });
  const status = h('p', { role: 'status', class: 'muted' });
  const load = async () => {
    const groupBy = boxes.filter((box) => box.input.checked).map((box) => box.dimension.name);
    status.textContent = 'Loading…';
    try {
      const report = await api.client.usage.get({ groupBy, from: from.value, to: to.value });
      replace(result, table(report));
      status.textContent = report.rows.length === 0 ? 'No model steps in this range.' : '';
    } catch (error) {
      replace(result);
      status.textContent = `Could not read the usage: ${describeError(error)}`;
    }
  };
  const form = h(
    'form',
    {
      class: 'usage-form',
      'aria-label': 'Usage range',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void load();
      },
    },
    field('From', from),
    field('To', to),
    h(
      'fieldset',
      { class: 'group-by' },
      h('legend', {}, 'Group by'),
      boxes.map(({ dimension, input }) => h('label', {}, input, ` ${dimension.label}`)),
    ),
    h('button', { type: 'submit' }, 'Show'),
  );
  void load();
  const element = h(
    'div',
    { class: 'usage-screen' },
    h('div', { class: 'section-head' }, h('h1', {}, 'Usage')),
    h('p', { class: 'muted' }, 'Tokens and cost of model steps by who spent them: an admin sees the tenant.'),
    form,
    status,
    result,
  );
  return { element, dispose: () => undefined };
}
