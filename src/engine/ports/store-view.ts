/**
 * A view of a thread's store that changes only what one part of the loop sees or writes: a side of
 * a dual_ai agent (sides.ts), a nested prompt run (subprompt.ts). Everything else goes to the store.
 */
import type { Message } from '../../spec/index.js';
import type { NewMessage, ThreadInfo, ThreadStore } from './thread-store.js';

export abstract class StoreView implements ThreadStore {
  private viewed: { length: number; view: readonly Message[] } = { length: -1, view: [] };

  constructor(protected readonly store: ThreadStore) {}

  /** The messages this view shows, from the whole log. */
  protected abstract select(log: readonly Message[]): Message[];

  get info(): ThreadInfo {
    return this.store.info;
  }

  messages(): readonly Message[] {
    const log = this.store.messages();
    // The log only grows: the view is rebuilt only when a message was added.
    if (this.viewed.length !== log.length) this.viewed = { length: log.length, view: this.select(log) };
    return this.viewed.view;
  }

  append(message: NewMessage): Message {
    return this.store.append(message);
  }

  getValue = (key: string) => this.store.getValue(key);
  setValue = (key: string, value: unknown) => this.store.setValue(key, value);
  enqueue: ThreadStore['enqueue'] = (message) => this.store.enqueue(message);
  drainQueue = () => this.store.drainQueue();
  markToolStarted = (id: string) => this.store.markToolStarted(id);
  toolStarted = (id: string) => this.store.toolStarted(id);
  children = () => this.store.children();
  handoff = (agentId: string) => this.store.handoff(agentId);
  interactions: ThreadStore['interactions'] = (id) => this.store.interactions(id);
  openInteraction: ThreadStore['openInteraction'] = (interaction) => this.store.openInteraction(interaction);
  answerInteraction: ThreadStore['answerInteraction'] = (id, kind, answer) =>
    this.store.answerInteraction(id, kind, answer);
  recordAnswer: ThreadStore['recordAnswer'] = (id, kind, answer) => this.store.recordAnswer(id, kind, answer);
  openInteractions = () => this.store.openInteractions();
}
