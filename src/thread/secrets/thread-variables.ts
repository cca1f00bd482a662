/**
 * A thread's opened variables and the scrubber built from them (VAR-3, EXE-8), kept for the object's
 * lifetime. Everything the thread stores or emits passes through `scrubber`: the message log, the
 * queue, interaction payloads and answers, tool values, file writes, frames and log lines. So the
 * scrubber is in place before anything is appended: the variables are opened when the object wakes
 * (before any request or alarm reaches it), taken from the plaintext at creation, and reopened when
 * `store_secret` adds a value (VAR-5).
 */

import type { ResolvedVariables } from '../../engine/execute/index.js';
import type { ThreadInfo } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { createScrubber, NO_SECRETS, type SecretScrubber } from '../../engine/secrets/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { type LoadedVariables, loadVariables } from './variables.js';

export interface VariablesHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  /** The thread's identity, or null before it is created. */
  info(): ThreadInfo | null;
}

export class ThreadVariables {
  private cache: Promise<LoadedVariables> | null = null;
  private current: SecretScrubber = NO_SECRETS;
  /** Secret values no variable holds (an MCP server's OAuth tokens), scrubbed like the variables'. */
  private readonly protectedValues = new Set<string>();
  private opened: LoadedVariables | null = null;

  constructor(private readonly host: VariablesHost) {}

  /**
   * The variables as they are at each read, for a turn's states: a value stored mid-turn
   * (`state.setEnv`) is seen by the next `env`/`tenvs` at once. Empty until opened.
   */
  readonly live: ResolvedVariables = liveVariables(() => this.opened);

  /** The scrubber as it is at each use: one stored mid-turn hides a new secret at once (EXE-8). */
  readonly liveScrubber: SecretScrubber = liveScrubber(() => this.current);

  /** The scrubber of the secrets known so far: every channel out of the thread goes through it. */
  get scrubber(): SecretScrubber {
    return this.current;
  }

  /** The variables, opened once per object lifetime; the scrubber follows them. */
  open(): Promise<LoadedVariables> {
    const info = this.host.info();
    if (!info) return Promise.reject(new Error('thread has not been created'));
    const { registry, ctx, env } = this.host;
    // Resolved by the current owner: a handoff (SUB-2) gives the thread another agent's declarations.
    const agent = registry.agent(info.agentId);
    this.cache ??= loadVariables(ctx.storage, info.id, agent ? registry.variablesFor(agent) : [], env.SECRETS_KEY)
      .then((opened) => {
        this.opened = opened;
        this.current = this.scrubberOf(opened);
        return opened;
      })
      .catch((error) => {
        this.cache = null;
        throw error;
      });
    return this.cache;
  }

  /**
   * When the object wakes: opens an existing thread's variables. A thread whose secrets cannot be
   * opened (SECRETS_KEY gone) still answers requests; its turns fail and say why.
   */
  async openAtWake(): Promise<void> {
    const info = this.host.info();
    if (!info) return;
    await this.open().catch((error) => {
      console.error(`variables of thread ${info.id} could not be opened: ${(error as Error).message}`);
    });
  }

  /** At creation: the variables opened from the plaintext values that were just sealed. */
  use(opened: LoadedVariables): void {
    this.cache = Promise.resolve(opened);
    this.opened = opened;
    this.current = this.scrubberOf(opened);
  }

  /**
   * Makes the scrubber hide values that are secret though no variable holds them, such as the OAuth
   * tokens of an MCP server: a server echoing one would otherwise put it in the log (EXE-8).
   */
  protect(values: Iterable<string>): void {
    const before = this.protectedValues.size;
    for (const value of values) this.protectedValues.add(value);
    if (this.protectedValues.size !== before && this.opened) this.current = this.scrubberOf(this.opened);
  }

  private scrubberOf(opened: LoadedVariables): SecretScrubber {
    if (this.protectedValues.size === 0) return opened.scrubber;
    const secrets = [...opened.secretNames].flatMap((name) => opened.resolved.values[name] ?? []);
    return createScrubber([...secrets, ...this.protectedValues]);
  }

  /** Reopens the variables after a value was stored mid-thread (VAR-5): tools and the scrubber see it. */
  async refresh(): Promise<LoadedVariables> {
    this.cache = null;
    return this.open();
  }

  /** Forgets what was opened (after the thread's storage was erased). */
  reset(): void {
    this.cache = null;
    this.opened = null;
    this.protectedValues.clear();
    this.current = NO_SECRETS;
  }

  /** A runtime log line: an output like any other, so no secret value in it (EXE-8). */
  logError = (line: string): void => {
    console.error(this.current.text(line));
  };
}

function liveVariables(opened: () => LoadedVariables | null): ResolvedVariables {
  const none: ResolvedVariables = { declared: new Set(), values: {}, secretNames: new Set() };
  return {
    get declared() {
      return (opened()?.resolved ?? none).declared;
    },
    get values() {
      return (opened()?.resolved ?? none).values;
    },
    get secretNames() {
      return opened()?.secretNames ?? none.secretNames;
    },
  };
}

function liveScrubber(current: () => SecretScrubber): SecretScrubber {
  return {
    get active() {
      return current().active;
    },
    text: (text) => current().text(text),
    value: (value) => current().value(value),
    inBytes: (bytes) => current().inBytes(bytes),
    withoutSecretStart: (text) => current().withoutSecretStart(text),
  };
}
