/**
 * Seeding tool contexts (CTX-1): before a thread's first model step, each of its tools that has a
 * `resolveContext` runs it once, with a state whose `context.local` already holds what the
 * thread's creator passed for that tool. The returned patch is stored like any `setContext`
 * (merged, checked against the tool's `contextSchema`, announced as `context_updated`). Which
 * tools are done is stored, so a restart or a later turn never runs a seed twice; a seed that
 * fails fails the turn, and the next turn tries it again.
 */
import type { ThreadState } from '../../spec/index.js';
import { MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';
import { runInToolCall } from '../egress/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { contextBinding, updateContext, withToolContext } from './tool-context.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-runner.js';

/** The store key listing the tools whose seed has run. */
const SEEDED_KEY = 'context_seeded';

export interface ContextSeedDeps {
  store: ThreadStore;
  emit: FrameSink;
  /** The thread's tools that keep a context (Registry.contextTools). */
  tools: ReadonlyMap<string, ResolvedTool>;
  /** A state outside any call; the seed's own context is bound over it. */
  state(): ThreadState;
}

/** Runs every seed not run yet; throws, naming the tool, when one fails. */
export async function seedToolContexts(deps: ContextSeedDeps): Promise<void> {
  const seeded = new Set((deps.store.getValue(SEEDED_KEY) as string[] | undefined) ?? []);
  for (const [name, tool] of deps.tools) {
    if (seeded.has(name) || !tool.definition.resolveContext) continue;
    await seedOne(deps, name, tool);
    seeded.add(name);
    deps.store.setValue(SEEDED_KEY, [...seeded]);
  }
}

async function seedOne(deps: ContextSeedDeps, name: string, tool: ResolvedTool): Promise<void> {
  const binding = contextBinding(name, tool);
  const state = withToolContext(deps.state(), deps.store, binding, deps.emit);
  const timeoutMs = Math.min(tool.definition.timeout ?? DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_TIMEOUT_MS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // Its code reaches the network as a call's does: the global fetch is the state's checked fetch.
    const network = {
      tool: name,
      fetch: (input: string | URL | Request, init?: RequestInit) => state.fetch(input, init),
    };
    const patch = await Promise.race([
      runInToolCall(network, () => Promise.resolve().then(() => tool.definition.resolveContext?.(state))),
      timedOut,
    ]);
    if (patch === undefined || patch === null) return;
    if (typeof patch !== 'object' || Array.isArray(patch)) {
      throw new Error(`it returned ${Array.isArray(patch) ? 'an array' : typeof patch}; return an object to merge`);
    }
    updateContext(deps.store, binding, patch as Record<string, unknown>, {}, deps.emit);
  } catch (error) {
    throw new Error(`resolveContext of tool "${name}" failed: ${(error as Error).message ?? String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
