/**
 * Tool calls as the Workers AI binding gives them (THR-4), reassembled into complete calls. Its
 * models answer in two families, streamed or not:
 *
 * - the OpenAI shape `{ index, id, type, function: { name, arguments } }`, streamed as a first
 *   fragment with the id and name and then pieces of the arguments string (continuations carry
 *   `id: null` and `name: null`), closed by a fragment with every field null;
 * - the older flat shape `{ name, arguments }` (Llama 3.x, Hermes), with `arguments` an object and
 *   no id, each call whole.
 *
 * Lenient in what it takes, strict in what it returns: calls in index order, arguments as the raw
 * string (an object is serialised), an id for every call. Parsing the arguments is the executor's job.
 */
import type { ToolCall } from '../../spec/index.js';
import { isRecord } from '../transport/index.js';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export class ToolCallFragments {
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex = -1;

  /** Adds every fragment of a `tool_calls` array; `positional` numbers index-less fragments by place (a whole answer). */
  addAll(fragments: unknown, positional = false): void {
    if (!Array.isArray(fragments)) return;
    fragments.forEach((fragment, place) => {
      if (isRecord(fragment)) this.add(fragment, positional ? place : undefined);
    });
  }

  get size(): number {
    return this.calls.size;
  }

  private add(fragment: Record<string, unknown>, place: number | undefined): void {
    const fn = isRecord(fragment.function) ? fragment.function : undefined;
    const id = text(fragment.id);
    const name = text(fn ? fn.name : fragment.name);
    const args = fn ? fn.arguments : fragment.arguments;
    const argumentText =
      typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args);
    // The fragment that closes a streamed call names nothing and adds nothing.
    if (id === '' && name === '' && argumentText === '') return;
    const index = this.indexOf(fragment.index, place, id, name);
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (id !== '' && call.id === '') call.id = id;
    // The first name wins: a name repeated on a later fragment must not be concatenated.
    if (name !== '' && call.name === '') call.name = name;
    call.arguments += argumentText;
  }

  /**
   * A fragment's index as given; without one, its place in a whole answer, else a fragment bearing a
   * new id, or a name but no id, starts the next call and any other continues the last one.
   */
  private indexOf(index: unknown, place: number | undefined, id: string, name: string): number {
    if (typeof index === 'number' && Number.isInteger(index)) return index;
    if (place !== undefined) return place;
    const last = this.calls.get(this.lastIndex);
    const startsNew = !last || (id !== '' ? id !== last.id : name !== '');
    return startsNew ? this.lastIndex + 1 : this.lastIndex;
  }

  /** The calls in index order; a call the model sent without an id gets one. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id || generateToolCallId(),
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Nine letters and digits: the binding once accepted no other `tool_call_id` (the pattern
 * `[a-zA-Z0-9]{9}`), so an id of this shape is replayed safely to every model, old or new.
 */
export function generateToolCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  let id = '';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
