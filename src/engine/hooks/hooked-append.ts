/**
 * A message stored with its hooks around it (HOOK-8): `before_create_message` sees the message as it
 * is about to be stored (its id, role and place fixed) and its changes are merged over it;
 * `after_create_message` sees it stored. The store scrubs what is stored as always, so a hook's
 * changes never bring a secret back. The caller announces the stored message, as it would anyway.
 */
import type { Message } from '../../spec/index.js';
import type { NewMessage, ThreadStore } from '../ports/index.js';
import type { HookRunner } from './hook-runner.js';

/** The message as it will be stored, before it is: what `before_create_message` is shown. */
function preview(store: ThreadStore, draft: NewMessage & { id: string }): Message {
  const log = store.messages();
  return {
    id: draft.id,
    seq: (log[log.length - 1]?.seq ?? 0) + 1,
    role: draft.role,
    content: draft.content,
    name: draft.name ?? null,
    tool_calls: draft.tool_calls ?? null,
    tool_call_id: draft.tool_call_id ?? null,
    created_at: Date.now(),
    parent_id: draft.parent_id ?? null,
    depth: draft.depth ?? 0,
    silent: draft.silent ?? false,
    metadata: draft.metadata ?? null,
    tool_status: draft.tool_status ?? null,
    attachments: draft.attachments ?? null,
    envelope: draft.envelope ?? null,
  };
}

/**
 * Stores `draft` through the create hooks. With `propagate` (the path of `state.injectMessage`), a
 * failing `before_create_message` rejects and nothing is stored.
 */
export async function appendWithHooks(
  store: ThreadStore,
  hooks: HookRunner,
  draft: NewMessage,
  propagate = false,
): Promise<Message> {
  let message: NewMessage = draft;
  if (hooks.has('before_create_message')) {
    const changed = await hooks.beforeCreateMessage(
      preview(store, { ...draft, id: draft.id ?? crypto.randomUUID() }),
      propagate,
    );
    message = {
      ...draft,
      id: changed.id,
      content: changed.content,
      name: changed.name,
      silent: changed.silent,
      metadata: changed.metadata,
      tool_status: changed.tool_status,
      attachments: changed.attachments,
      envelope: changed.envelope,
    };
  }
  const stored = store.append(message);
  if (hooks.has('after_create_message')) await hooks.afterCreateMessage(stored);
  return stored;
}
