/**
 * Reassembles streamed tool calls (THR-4). OpenAI-compatible servers send each call in fragments under
 * `choices[0].delta.tool_calls[]`: the first carries `index`, `id`, `type` and `function.name`, later
 * ones carry pieces of `function.arguments`. Servers differ in the details (a missing id, a missing
 * index, a name repeated on every fragment, arguments sent whole as an object), so this is lenient in
 * what it accepts and strict in what it returns: complete calls, in index order, with the arguments
 * as the raw concatenated string. Parsing them is the executor's job, which reports bad JSON to the
 * model.
 */
import type { ToolCall } from '../../spec/index.js';

/** One element of `delta.tool_calls` as servers actually send it. */
export interface ToolCallFragment {
  index?: number;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, PartialCall>();
  private lastIndex = -1;

  add(fragment: ToolCallFragment): void {
    const index = this.indexOf(fragment);
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (typeof fragment.id === 'string' && fragment.id !== '' && call.id === '') call.id = fragment.id;
    const name = fragment.function?.name;
    // The first name wins: some servers repeat it on every fragment, and concatenating would corrupt it.
    if (typeof name === 'string' && name !== '' && call.name === '') call.name = name;
    const args = fragment.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (args !== undefined && args !== null) call.arguments += JSON.stringify(args);
  }

  get size(): number {
    return this.calls.size;
  }

  /** The calls in index order; a call whose server sent no id gets a generated one. */
  finish(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id || generateToolCallId(),
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
  }

  /**
   * Without an index, a fragment bearing a new id starts the next call and any other continues the
   * last one, which is how servers that omit the index stream.
   */
  private indexOf(fragment: ToolCallFragment): number {
    if (typeof fragment.index === 'number' && Number.isInteger(fragment.index)) return fragment.index;
    const last = this.calls.get(this.lastIndex);
    const startsNew = !last || (typeof fragment.id === 'string' && fragment.id !== '' && fragment.id !== last.id);
    return startsNew ? this.lastIndex + 1 : this.lastIndex;
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id in OpenAI's shape, for servers that send none: tool results must name the call they answer. */
export function generateToolCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let id = 'call_';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
