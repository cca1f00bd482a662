/**
 * A view of a thread's store that changes only what one part of the loop sees or writes: a side of
 * a dual_ai agent (sides.ts), a nested prompt run (subprompt.ts), the calls a tool invokes
 * (invoke-tool.ts). Everything else goes to the store.
 */
import type { Message } from '../../spec/index.js';
import type { NewMessage, ThreadInfo, ThreadStore } from './thread-store.js';

export abstract class StoreView implements ThreadStore {
  private viewed: { log: readonly Message[] | null; length: number; view: readonly Message[] } = {
    log: null,
    length: -1,
    view: [],
  };

  constructor(protected readonly store: ThreadStore) {}

  /** The messages this view shows, from the whole log. */
  protected abstract select(log: readonly Message[]): Message[];

  get info(): ThreadInfo {
    return this.store.info;
  }

  messages(): readonly Message[] {
    const log = this.store.messages();
    // Appends grow the log's array; an update or a removal replaces it: either rebuilds the view.
    if (this.viewed.log !== log || this.viewed.length !== log.length) {
      this.viewed = { log, length: log.length, view: this.select(log) };
    }
    return this.viewed.view;
  }

  append(message: NewMessage): Message {
    return this.store.append(message);
  }

  updateMessage: ThreadStore['updateMessage'] = (id, patch) => this.store.updateMessage(id, patch);
  deleteMessages = (ids: readonly string[]) => this.store.deleteMessages(ids);
  getValue = (key: string) => this.store.getValue(key);
  setValue = (key: string, value: unknown) => this.store.setValue(key, value);
  derivedValue = <T>(key: string, derive: (value: unknown) => T): T => this.store.derivedValue(key, derive);
  enqueue: ThreadStore['enqueue'] = (message) => this.store.enqueue(message);
  drainQueue = () => this.store.drainQueue();
  markToolStarted = (id: string) => this.store.markToolStarted(id);
  toolStarted = (id: string) => this.store.toolStarted(id);
  clearToolStarted = (id: string) => this.store.clearToolStarted(id);
  children = () => this.store.children();
  childEntries = () => this.store.childEntries();
  setChildStatus = (childId: string, status: string, fromTurn?: boolean) =>
    this.store.setChildStatus(childId, status, fromTurn);
  handoff = (agentId: string) => this.store.handoff(agentId);
  interactions: ThreadStore['interactions'] = (id) => this.store.interactions(id);
  openInteraction: ThreadStore['openInteraction'] = (interaction) => this.store.openInteraction(interaction);
  answerInteraction: ThreadStore['answerInteraction'] = (id, kind, answer) =>
    this.store.answerInteraction(id, kind, answer);
  recordAnswer: ThreadStore['recordAnswer'] = (id, kind, answer) => this.store.recordAnswer(id, kind, answer);
  openInteractions = () => this.store.openInteractions();
}

/** Where a nested run's messages go: one level below the step that started it, marked with its call. */
export interface NestedPlace {
  depth: number;
  /** The step whose call started the run. */
  parentId: string;
  /** The metadata key that names the call (`prompt_call`, `invoked_by`), and the call's id. */
  marker: string;
  call: string;
  /** Nobody answers inside the run: a wait for a human fails at once, as on a headless thread. */
  headless: boolean;
}

/** The messages of one nested run, kept out of the conversation it is nested in. */
export class NestedStore extends StoreView {
  constructor(
    store: ThreadStore,
    private readonly place: NestedPlace,
  ) {
    super(store);
  }

  override get info(): ThreadInfo {
    return this.place.headless ? { ...this.store.info, headless: true } : this.store.info;
  }

  protected select(log: readonly Message[]): Message[] {
    const { depth, marker, call } = this.place;
    return log.filter((message) => message.depth === depth && message.metadata?.[marker] === call);
  }

  override append(message: NewMessage): Message {
    const { depth, parentId, marker, call } = this.place;
    return this.store.append({
      ...message,
      depth,
      parent_id: parentId,
      metadata: { ...message.metadata, [marker]: call },
    });
  }
}
