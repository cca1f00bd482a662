/**
 * The thread's todo list as a panel: the items of the last `todo` call that succeeded, each with
 * where it stands, and how many are done. The list comes from the model, so anything that is not
 * a list of items with a known status is ignored, and every item is shown as text.
 */
import { h, replace } from './dom.js';

type TodoStatus = 'pending' | 'in_progress' | 'completed';

interface TodoItem {
  content: string;
  status: TodoStatus;
}

const STATUS_WORDS: Record<TodoStatus, string> = {
  pending: 'to do',
  in_progress: 'in progress',
  completed: 'done',
};

/** The items of a `todo` call's arguments, or null when they are not a todo list. */
export function todoItems(args: unknown): TodoItem[] | null {
  const todos = (args as { todos?: unknown } | null)?.todos;
  if (!Array.isArray(todos)) return null;
  const items: TodoItem[] = [];
  for (const todo of todos) {
    const { content, status } = (todo ?? {}) as { content?: unknown; status?: unknown };
    if (typeof content !== 'string' || typeof status !== 'string' || !Object.hasOwn(STATUS_WORDS, status)) return null;
    items.push({ content, status: status as TodoStatus });
  }
  return items;
}

export class TodoPanel {
  readonly element: HTMLElement;
  private readonly list = h('ul', { class: 'todos', 'aria-label': 'Todo items' });
  private readonly summary = h('p', { class: 'muted small' });

  constructor() {
    this.element = h(
      'section',
      { class: 'card todo-panel', 'aria-labelledby': 'todo-title', hidden: true },
      h('h2', { id: 'todo-title' }, 'Todo'),
      this.summary,
      this.list,
    );
  }

  /** A tool call ended: a successful `todo` call replaces the list. */
  callEnded(name: string, args: unknown, status: 'success' | 'error'): void {
    if (name !== 'todo' || status !== 'success') return;
    const items = todoItems(args);
    if (items) this.show(items);
  }

  private show(items: TodoItem[]): void {
    const done = items.filter((item) => item.status === 'completed').length;
    this.summary.textContent = items.length ? `${done} of ${items.length} done` : 'The list is empty.';
    replace(
      this.list,
      items.map((item) =>
        h(
          'li',
          { class: `todo todo-${item.status}`, 'data-status': item.status },
          h('span', { class: `badge badge-todo-${item.status}` }, STATUS_WORDS[item.status]),
          ' ',
          h('span', { class: 'todo-text' }, item.content),
        ),
      ),
    );
    this.element.hidden = false;
  }
}
