/**
 * `todo` (LOCK-1, seed 003): the thread's todo list. Each call replaces the whole list; it is kept in
 * the thread's key-value store, so it survives turns and restarts, and the call answers with the
 * list rendered as checkboxes for the model to read back.
 */
import { z } from 'zod';
import { defineTool } from '../../spec/index.js';

/** The key-value key the list is stored under. */
export const TODO_KEY = 'todo:list';

const item = z.object({
  content: z.string().min(1).describe('What is to be done'),
  status: z.enum(['pending', 'in_progress', 'completed']).describe('Where the item stands'),
});

export type TodoItem = z.infer<typeof item>;

const MARKS: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** The list as the model reads it: one checkbox line per item and a count. */
export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const lines = todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`);
  return [...lines, `(${done} of ${todos.length} completed)`].join('\n');
}

const args = z.object({
  todos: z.array(item).describe('The whole list, in order; it replaces the previous one'),
});

export const todo = defineTool({
  description: 'Replace the todo list of the thread with the given items and their statuses',
  args,
  acpKind: 'think',
  requires: {},
  execute: async (state, input) => {
    await state.setValue(TODO_KEY, input.todos);
    return { status: 'success', result: renderTodos(input.todos) };
  },
});
