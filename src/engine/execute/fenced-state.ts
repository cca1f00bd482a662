/**
 * A call's state is fenced once the call has ended (EXE-5, EXE-6): after a timeout or a stop its
 * result is already stored and the model has moved on, so a tool that ignored its abort signal, or
 * left work running after it returned, can no longer write files, add or queue messages, emit
 * frames, store values, start or message threads, fetch, or run commands. Reads stay possible; they
 * change nothing.
 */
import type { ThreadState } from '../../spec/index.js';

/** The state methods that act on the thread or the world. */
const ACTS: ReadonlySet<PropertyKey> = new Set([
  'writeFile',
  'unlinkFile',
  'injectMessage',
  'queueMessage',
  'setValue',
  'setContext',
  'emit',
  'spawnChild',
  'messageChild',
  'handoff',
  'notifyParent',
  'fetch',
  'authorize',
  'invokeTool',
  'runCode',
  'updateMessage',
  'deleteMessage',
  'queueTool',
  'setStatus',
  'terminate',
  'scheduleEffect',
  'removeScheduledEffect',
  'mkdirFile',
  'rmdirFile',
  'setEnv',
]);
/** The methods giving another thread's state: fenced with this call, so it acts no longer than the call. */
const FAMILY: ReadonlySet<PropertyKey> = new Set(['getChildThread', 'getParentThread']);
/** The ones that answer synchronously: they throw instead of rejecting. */
const SYNCHRONOUS: ReadonlySet<PropertyKey> = new Set(['emit', 'authorize', 'queueTool']);

export class CallEnded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallEnded';
  }
}

export interface Fence {
  /** Why the call ended, once it has; null while it runs. */
  ended: string | null;
}

/** `own` holds what this call's state has that the thread's does not (its `invokeTool`). */
export function fencedState(
  state: ThreadState,
  fence: Fence,
  tool: string,
  own: Partial<Pick<ThreadState, 'invokeTool'>> = {},
): ThreadState {
  return new Proxy(state, {
    get(base, property, receiver) {
      const value = Object.hasOwn(own, property)
        ? own[property as keyof typeof own]
        : Reflect.get(base, property, receiver);
      if (FAMILY.has(property) && typeof value === 'function') {
        return async (...args: unknown[]) => {
          const other = (await (value as (...rest: unknown[]) => unknown).apply(receiver, args)) as ThreadState | null;
          return other ? fencedState(other, fence, tool) : other;
        };
      }
      if (!ACTS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (fence.ended !== null) {
          const error = new CallEnded(
            `this call of tool "${tool}" has ended (${fence.ended}); it can no longer change the thread (${String(property)})`,
          );
          if (SYNCHRONOUS.has(property)) throw error;
          return Promise.reject(error);
        }
        // The receiver, not the bare state: a method like runCode acts through this fenced state.
        return (value as (...rest: unknown[]) => unknown).apply(receiver, args);
      };
    },
  });
}
