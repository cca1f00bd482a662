/**
 * Streamed tool calls reassembled into complete calls (THR-4), for every protocol that streams them
 * in the Chat Completions shape: OpenAI-compatible servers under `choices[0].delta.tool_calls[]`, the
 * Workers AI binding under a top-level `tool_calls` too. The first fragment of a call carries
 * `index`, `id`, `type` and `function.name`; later ones carry pieces of `function.arguments`.
 * Servers differ in the details (a missing id, a missing index, a name repeated on every fragment,
 * arguments sent whole as an object), so this is lenient in what it accepts and strict in what it
 * returns: complete calls, in index order, each with an id, the arguments as the raw concatenated
 * string. Parsing them is the executor's job, which reports bad JSON to the model. As each call's
 * arguments grow, `onDelta` hears its whole text so far (ARGS-1), under the id the finished call gets.
 */
import type { ToolCallDelta } from '../../engine/ports/index.js';
import type { ToolCall } from '../../spec/index.js';
import { isRecord } from './http-text.js';

/** What differs between the protocols that use the assembler. */
export interface ToolCallDialect {
  /** An id for a call the server sent without one, in a shape the vendor accepts back later. */
  newId(): string;
  /**
   * Whether calls may also come in the older flat shape `{ name, arguments }` (Workers AI's Llama 3
   * and Hermes models), each whole, with no id and no index. Then a fragment that has a name but no
   * id starts a new call (flat calls carry nothing else that tells them apart), and a fragment that
   * names and adds nothing is dropped (the binding closes each streamed call with one whose every
   * field is null).
   */
  flatCalls: boolean;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Arguments as the raw string they are, or an object a server sent whole, serialised. */
function argumentText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex = -1;

  constructor(
    private readonly dialect: ToolCallDialect,
    private readonly onDelta?: (delta: ToolCallDelta) => void,
  ) {}

  /** Adds every fragment of a `tool_calls` array; `positional` numbers index-less fragments by place (a whole answer). */
  addAll(fragments: unknown, positional = false): void {
    if (!Array.isArray(fragments)) return;
    fragments.forEach((fragment, place) => {
      if (isRecord(fragment)) this.add(fragment, positional ? place : undefined);
    });
  }

  /** Adds one fragment; `place` is its position in a whole answer, for a fragment without an index. */
  add(fragment: Record<string, unknown>, place?: number): void {
    const fn = isRecord(fragment.function) ? fragment.function : undefined;
    const flat = this.dialect.flatCalls && !fn;
    const id = text(fragment.id);
    const name = text(flat ? fragment.name : fn?.name);
    const args = argumentText(flat ? fragment.arguments : fn?.arguments);
    if (this.dialect.flatCalls && id === '' && name === '' && args === '') return;
    const index = this.indexOf(fragment.index, place, id, name);
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (id !== '' && call.id === '') call.id = id;
    // The first name wins: some servers repeat it on every fragment, and concatenating would corrupt it.
    if (name !== '' && call.name === '') call.name = name;
    call.arguments += args;
    if (args !== '' && this.onDelta) {
      // A call streamed without an id gets its id now, so its deltas and the finished call agree.
      if (call.id === '') call.id = this.dialect.newId();
      this.onDelta({ id: call.id, name: call.name, argumentsText: call.arguments });
    }
  }

  /** The calls in index order; a call whose server sent no id gets one. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id || this.dialect.newId(),
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
  }

  /**
   * A fragment's index as given; without one, its place in a whole answer; else a fragment bearing
   * a new id starts the next call and any other continues the last one, which is how servers that
   * omit the index stream (in the flat dialect, a name without an id starts one too).
   */
  private indexOf(index: unknown, place: number | undefined, id: string, name: string): number {
    if (typeof index === 'number' && Number.isInteger(index)) return index;
    if (place !== undefined) return place;
    const last = this.calls.get(this.lastIndex);
    const startsNew = !last || (id !== '' ? id !== last.id : this.dialect.flatCalls && name !== '');
    return startsNew ? this.lastIndex + 1 : this.lastIndex;
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A call id of `length` random letters and digits after `prefix`, for servers that send none: tool
 * results must name the call they answer, and the log pairs them by id across the whole thread, so
 * ids must never repeat, as a per-step counter would.
 */
export function randomCallId(prefix: string, length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = prefix;
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
