/**
 * The thread's records as `ThreadState` shows them and the options that make them: a scheduled
 * effect, an entry of the registry of children, a variable's type, a child thread to start.
 */

/** A scheduled effect still waiting to run, as `state.getScheduledEffects()` lists it. */
export interface ScheduledEffect {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** When it is due, in microseconds since the epoch. */
  scheduledAt: number;
  /** When it was scheduled, in microseconds since the epoch. */
  createdAt: number;
}

/** Options of `state.setEnv`. */
export interface SetEnvOptions {
  /** `'secret'`: sealed at rest and scrubbed from everything the thread stores or shows. */
  type?: 'text' | 'secret';
}

/** A child thread as its parent's registry records it (`state.children`). */
export interface SubagentRegistryEntry {
  /** The child thread's id: what `getChildThread` takes. */
  reference: string;
  /** The agent the child runs. */
  name: string;
  title?: string;
  /** What the child is for: its agent's tool description, or `''`. */
  description: string;
  /** A resumable instance, which the parent can message again (`messageChild`). */
  resumable?: boolean;
  /** A tool call of the parent waits for the child's answer. */
  blocking?: boolean;
  /** A resumable instance's name. */
  threadName?: string;
  /** When the child was started, in microseconds since the epoch. */
  createdAt?: number;
  /**
   * `'running'` while its turn runs, `'idle'` after it, `'terminated'`, or what the child set with
   * `setStatus`.
   */
  status: 'running' | 'idle' | 'terminated' | (string & {});
}

export interface SpawnChildOptions {
  agent: string;
  message: string;
  /** The child's own variable values; it inherits the rest (VAR-4). */
  variables?: Record<string, string>;
  tags?: string[];
  /** The id of a tool call of this thread that waits for the child (`subagent` interaction). */
  reportTo?: string;
  /** Files of this thread to copy into the child's `/attachments/from-parent/` (ATT-4). */
  files?: string[];
  /** Without `reportTo`: deliver the child's answer to this thread as a message when it finishes. */
  notify?: boolean;
  /**
   * A resumable instance (SUB-4): its name, unique among this thread's instances; the child side
   * this thread's messages go to; how many instances of the agent may exist. With `notify`, every
   * answer the child ends a session with is delivered here, not only the first.
   */
  instance?: { name: string; receives: 'a' | 'b'; maxInstances?: number };
}
