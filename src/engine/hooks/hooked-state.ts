/**
 * A call's ThreadState with the active prompt's hooks around what it stores and starts (HOOK-8,
 * HOOK-11): `state.injectMessage` runs `before_create_message` (a failure rejects the call and
 * nothing is stored) and `after_create_message`; a child thread started with `state.spawnChild`
 * runs `after_subagent_created` on this thread once the child exists; `state.updateMessage` runs
 * `before_update_message` (what it returns is applied instead) and `after_update_message` (HOOK-12).
 * Every other member is the state's own, getters included.
 */
import type { Message, NewMessageInput, SpawnChildOptions, ThreadState } from '../../spec/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { HookRunner } from './hook-runner.js';
import { appendWithHooks } from './hooked-append.js';

/** The child as its parent's hook sees it: at rest, through `getChildThread` where the state has it. */
async function childState(state: ThreadState, id: string, agent: string): Promise<ThreadState> {
  const lookup = (state as { getChildThread?: (id: string) => Promise<ThreadState | null> }).getChildThread;
  const child = typeof lookup === 'function' ? await lookup.call(state, id).catch(() => null) : null;
  return child ?? ({ threadId: id, agentId: agent, userId: state.userId, execution: null } as ThreadState);
}

export function withHooks(state: ThreadState, hooks: HookRunner, store: ThreadStore, emit: FrameSink): ThreadState {
  const injectMessage = async (input: NewMessageInput): Promise<Message> => {
    // A terminated thread's state refuses on its own, with its own words.
    const unhooked = !hooks.has('before_create_message') && !hooks.has('after_create_message');
    if (unhooked || typeof store.info.terminatedAt === 'number') return state.injectMessage(input);
    const draft = {
      role: input.role,
      content: input.content,
      silent: input.silent ?? false,
      metadata: input.metadata ?? null,
    };
    const message = await appendWithHooks(store, hooks, draft, true);
    emit({ type: 'message', message });
    return message;
  };
  const spawnChild = async (options: SpawnChildOptions) => {
    const child = await state.spawnChild(options);
    if (hooks.has('after_subagent_created'))
      await hooks.afterSubagentCreated(await childState(state, child.id, options.agent));
    return child;
  };
  const updateMessage: ThreadState['updateMessage'] = async (messageId, updates) => {
    if (!hooks.has('before_update_message') && !hooks.has('after_update_message')) {
      return state.updateMessage(messageId, updates);
    }
    const changed = await hooks.beforeUpdateMessage(messageId, updates);
    const updated = await state.updateMessage(messageId, changed);
    await hooks.afterUpdateMessage(updated);
    return updated;
  };
  const own: Partial<ThreadState> = { injectMessage, spawnChild, updateMessage };
  return new Proxy(state, {
    get(base, property, receiver) {
      return Object.hasOwn(own, property) ? own[property as keyof ThreadState] : Reflect.get(base, property, receiver);
    },
  });
}
