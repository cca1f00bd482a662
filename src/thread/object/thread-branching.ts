/**
 * The thread's history RPCs (FORK-2, FORK-3, FORK-6): forking it at a point of its log (or just
 * before a user message, for an edit) and rewinding it in place. Their bodies are thread/history's;
 * this class gives them the object's parts.
 */
import type { Principal } from '../access/index.js';
import { type ForkAnswer, type ForkRequest, ok, type RewindAnswer, type RpcResult } from '../bindings/index.js';
import { forkThread, type HistoryDesk, rewindThread } from '../history/index.js';
import { ThreadWiring } from './thread-wiring.js';

export abstract class ThreadBranching extends ThreadWiring {
  /** What forks and rewinds borrow of the object. */
  private historyDesk(): HistoryDesk {
    const status = this.metaTable.status();
    const store = this.store();
    return {
      env: this.env,
      registry: this.registry,
      store,
      meta: this.metaTable,
      variables: this.variables,
      files: this.files(),
      emit: this.emit,
      busy:
        this.driver.busy ||
        status === 'running' ||
        status === 'waiting' ||
        status === 'awaiting_hitl' ||
        store.openInteractions().length > 0 ||
        store.hasQueued(),
    };
  }

  /** A fork of this thread, owned by `principal`: the source is only read (write permission asked). */
  async forkThread(principal: Principal, id: string, request: ForkRequest): Promise<RpcResult<ForkAnswer>> {
    return this.asPrincipal(principal, id, 'write', (record) =>
      forkThread(this.historyDesk(), record, principal, request),
    );
  }

  /** Truncates the log after `to` and puts the files back as they were there. */
  async rewindThread(
    principal: Principal,
    id: string,
    request: { to: string; force: boolean },
  ): Promise<RpcResult<RewindAnswer>> {
    return this.asPrincipal(principal, id, 'write', async (record) => {
      const rewound = await rewindThread(this.historyDesk(), request);
      if (!rewound.ok) return rewound;
      const thread = this.details(record, await this.files().settledUsage());
      return ok({ thread, removed_messages: rewound.value.removed, restored_files: rewound.value.restored });
    });
  }
}
