/**
 * What a thread records of each child it started (`state.children`, the specification's subagent
 * registry): the agent, what it is for, whether a call waits for it or it can be messaged again, and
 * its status, which the child reports (its turns starting and ending, `setStatus`, being
 * terminated). The ids and start times are the `children` table's; the rest is one key-value entry,
 * so a thread made before the registry existed shows its children with what is known of them.
 */
import type { ChildEntry } from '../../../engine/ports/index.js';

/** The key-value entry holding every child's facts, by child id. */
export const CHILD_REGISTRY_KEY = 'child_registry';

/** What a parent knows of a child when it starts it. */
export type ChildFacts = Omit<ChildEntry, 'id' | 'createdAt' | 'status'>;

type Stored = Record<string, ChildFacts & { status: string }>;

export interface KeyValues {
  getValue(key: string): unknown;
  setValue(key: string, value: unknown): void;
}

/** The longest status a child may set: it is shown, not parsed. */
export const MAX_CHILD_STATUS_LENGTH = 200;

function stored(store: KeyValues): Stored {
  return (store.getValue(CHILD_REGISTRY_KEY) as Stored | undefined) ?? {};
}

/** Records a child as started: `running`, or the status it reported before it was recorded. */
export function recordChild(store: KeyValues, id: string, facts: ChildFacts, reported?: string): void {
  const status = reported && validStatus(reported) ? reported.trim() : 'running';
  store.setValue(CHILD_REGISTRY_KEY, { ...stored(store), [id]: { ...facts, status } });
}

function validStatus(status: unknown): status is string {
  if (typeof status !== 'string') return false;
  const text = status.trim();
  return text !== '' && text.length <= MAX_CHILD_STATUS_LENGTH;
}

/** The registry, oldest first; a child started before the registry existed shows no agent and `idle`. */
export function childEntries(
  store: KeyValues,
  children: ReadonlyArray<{ id: string; createdAt: number }>,
): ChildEntry[] {
  const facts = stored(store);
  return children.map(({ id, createdAt }) => ({
    id,
    ...(facts[id] ?? { name: '', description: '', status: 'idle' }),
    createdAt,
  }));
}

/** The statuses the runtime reports as a child's turns start and end. */
const TURN_STATUSES: ReadonlySet<string> = new Set(['running', 'idle', 'waiting', 'awaiting_hitl', 'error']);

/**
 * Records a child's status; false for an unknown child, a refused status, or one already terminated.
 * `fromTurn`: the runtime reports a turn's start or end. A turn's end does not replace a status the
 * child set itself during it (`setStatus`); its next turn's start does.
 */
export function setChildStatus(
  store: KeyValues,
  known: readonly string[],
  id: string,
  status: string,
  fromTurn = false,
): boolean {
  if (!known.includes(id) || !validStatus(status)) return false;
  const text = status.trim();
  const all = stored(store);
  const entry = all[id] ?? { name: '', description: '', status: 'idle' };
  if (entry.status === 'terminated') return false;
  const custom = !TURN_STATUSES.has(entry.status);
  if (fromTurn && custom && text !== 'running' && text !== 'terminated') return false;
  store.setValue(CHILD_REGISTRY_KEY, { ...all, [id]: { ...entry, status: text } });
  return true;
}
