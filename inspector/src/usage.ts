/** A thread's model usage: the whole thread and its newest turn, and the budget in force. */
import { h, replace } from './dom.js';
import { count, dollars } from './format.js';
import type { ThreadDetails, UsageTotals } from './types.js';

function cost(totals: UsageTotals): string {
  if (totals.unpriced_steps === 0) return dollars(totals.cost_usd);
  if (totals.unpriced_steps === totals.steps) return 'not priced';
  return `${dollars(totals.cost_usd)}*`;
}

const ROWS: [string, (totals: UsageTotals) => string][] = [
  ['Input tokens', (totals) => count(totals.input_tokens)],
  ['Cached', (totals) => count(totals.cached_tokens)],
  ['Output tokens', (totals) => count(totals.output_tokens)],
  ['Total', (totals) => count(totals.total_tokens)],
  ['Steps', (totals) => count(totals.steps)],
  ['Cost', cost],
];

export class UsagePanel {
  readonly element: HTMLElement;
  private readonly body = h('div', {});

  constructor() {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'usage-title' },
      h('h2', { id: 'usage-title' }, 'Usage'),
      this.body,
    );
  }

  show(usage: { thread: UsageTotals; turn: UsageTotals }, budget: ThreadDetails['budget'] = null): void {
    const { thread, turn } = usage;
    const partlyPriced = thread.unpriced_steps > 0 && thread.unpriced_steps < thread.steps;
    replace(
      this.body,
      h(
        'table',
        { class: 'usage', 'aria-label': 'Token usage' },
        h(
          'thead',
          {},
          h('tr', {}, h('td', {}), h('th', { scope: 'col' }, 'Thread'), h('th', { scope: 'col' }, 'Last turn')),
        ),
        h(
          'tbody',
          {},
          ROWS.map(([label, cell]) =>
            h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, cell(thread)), h('td', {}, cell(turn))),
          ),
        ),
      ),
      partlyPriced ? h('p', { class: 'muted small' }, '* leaves out the steps of models without prices.') : null,
      budget
        ? h(
            'p',
            { class: 'small' },
            'Budget: ',
            [
              budget.maxTokens === undefined ? null : `${count(budget.maxTokens)} tokens`,
              budget.maxCost === undefined ? null : dollars(budget.maxCost),
            ]
              .filter(Boolean)
              .join(', '),
          )
        : null,
    );
  }
}
