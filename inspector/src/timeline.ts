/**
 * The thread's timeline: each turn it recorded (one trace: the turn, its model steps, tool calls,
 * hooks and retries, and the child threads it ran) as a closed line saying when it started, how
 * long it took, what it used and whether anything failed, opening into a waterfall of its spans
 * (timeline-waterfall.ts). The newest turns first; older ones on request. Read again when a turn
 * ends; a turn whose spans did not change keeps what was opened in it.
 */
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { count, dollars, time } from './format.js';
import { spanDuration } from './timeline-scale.js';
import { type SpanUsage, type Turn, turnsOf } from './timeline-spans.js';
import { waterfall } from './timeline-waterfall.js';

/** How many turns are read at first, and how many more each "older turns" asks for. */
const PAGE = 20;
/** The most the API keeps and serves. */
const MOST = 200;

interface ShownTurn {
  /** The span ids it was drawn from: the same ids, the same drawing. */
  key: string;
  element: HTMLDetailsElement;
}

export class TimelinePanel {
  readonly element: HTMLElement;
  private readonly body = h('div', { class: 'timeline' });
  private readonly more = h('button', { type: 'button', class: 'small', hidden: true }, 'Show older turns');
  private readonly shown = new Map<string, ShownTurn>();
  private wanted = PAGE;
  /** A refresh asked while one is under way runs once that one ends. */
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly log: HTMLElement,
  ) {
    this.more.addEventListener('click', () => {
      this.wanted = Math.min(MOST, this.wanted + PAGE);
      void this.refresh();
    });
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'timeline-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'timeline-title' }, 'Timeline'),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, 'Refresh timeline'),
      ),
      this.body,
      this.more,
    );
  }

  /** Reads the turns again (a turn ended); overlapping asks are served by one more read. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  private async read(): Promise<void> {
    try {
      const { spans } = await this.api.client.spans.list(this.threadId, { traces: this.wanted });
      this.show(turnsOf(spans));
    } catch (error) {
      replace(this.body, h('p', { class: 'form-error' }, `Could not read the timeline: ${describeError(error)}`));
      this.shown.clear();
    }
  }

  private show(turns: Turn[]): void {
    this.more.hidden = turns.length < this.wanted || this.wanted >= MOST;
    if (turns.length === 0) {
      this.shown.clear();
      replace(this.body, h('p', { class: 'muted' }, 'No turns recorded yet.'));
      return;
    }
    const elements = turns.map((turn) => {
      const key = turnKey(turn);
      const previous = this.shown.get(turn.traceId);
      if (previous?.key === key) return previous.element;
      const element = this.turn(turn, previous?.element.open ?? false);
      this.shown.set(turn.traceId, { key, element });
      return element;
    });
    const kept = new Set(turns.map((turn) => turn.traceId));
    for (const traceId of this.shown.keys()) if (!kept.has(traceId)) this.shown.delete(traceId);
    replace(
      this.body,
      h(
        'ol',
        { class: 'turns', 'aria-label': 'Turns' },
        elements.map((each) => h('li', {}, each)),
      ),
    );
  }

  /** One turn: its summary line, and its waterfall drawn when first opened. */
  private turn(turn: Turn, open: boolean): HTMLDetailsElement {
    const element = h('details', { class: 'turn', 'data-trace-id': turn.traceId }, turnSummary(turn));
    let drawn = false;
    const draw = () => {
      if (drawn || !element.open) return;
      drawn = true;
      element.append(
        waterfall(turn.roots, 0, {
          traceId: turn.traceId,
          window: { startMs: turn.startMs, endMs: turn.endMs },
          log: this.log,
          childSpans: async (childId, traceId) => (await this.api.client.spans.list(childId, { traceId })).spans,
        }),
      );
    };
    element.addEventListener('toggle', draw);
    element.open = open;
    draw();
    return element;
  }
}

function turnKey(turn: Turn): string {
  const ids: string[] = [];
  const walk = (nodes: Turn['roots']) => {
    for (const node of nodes) {
      ids.push(`${node.span.span_id}:${node.span.end_ms}`);
      walk(node.children);
    }
  };
  walk(turn.roots);
  return ids.join(',');
}

function usageLine(usage: SpanUsage | null): string | null {
  if (!usage) return null;
  const tokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  return [`${count(tokens)} tokens`, usage.costUsd === null ? null : dollars(usage.costUsd)]
    .filter(Boolean)
    .join(' · ');
}

function turnSummary(turn: Turn): HTMLElement {
  const usage = usageLine(turn.usage);
  return h(
    'summary',
    {},
    h('span', { class: 'turn-name' }, turn.head.name),
    ' ',
    h('time', { datetime: new Date(turn.startMs).toISOString() }, time(turn.startMs)),
    ' · ',
    spanDuration(turn.endMs - turn.startMs),
    usage ? ` · ${usage}` : null,
    turn.errors > 0 ? [' · ', badge(turn.errors === 1 ? '1 error' : `${turn.errors} errors`, 'error')] : null,
  );
}
