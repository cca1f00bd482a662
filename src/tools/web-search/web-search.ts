/**
 * `web_search` (LOCK-1, LOCK-3, seed 003 "Web search"): `{ query, max_results }` → `{ results: { title,
 * url, snippet }[] }` from a real search API. The provider is picked per thread (search-providers/),
 * each thread may make a limited number of calls (default 25, counted in its key-value store) and each
 * call has a time limit (default 15 s); both are host configuration through variables.
 */
import { z } from 'zod';
import { defineTool, positiveIntVariable } from '../../spec/internal.js';
import {
  SEARCH_PROVIDER_HOSTS,
  SEARCH_PROVIDER_VARIABLES,
  SearchProviderError,
  selectProvider,
} from './providers/index.js';

export const DEFAULT_MAX_CALLS = 25;
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;
const MAX_SEARCH_TIMEOUT_MS = 60_000;
/** Key of the per-thread call counter in the thread's key-value store. */
export const CALLS_KEY = 'web_search.calls';

const args = z.object({
  query: z.string().trim().min(1).describe('The search query'),
  max_results: z.number().int().min(1).max(20).default(5).describe('How many results to list (1 to 20)'),
});

export const webSearch = defineTool({
  description: 'Search the web and list the pages that match a query',
  args,
  acpKind: 'search',
  // INJ-1: pages and snippets are written by strangers: data for the model, never instructions.
  untrustedOutput: true,
  readOnly: true,
  // Safe to repeat after a restart; the repeat counts against the cap like any call.
  idempotent: true,
  // The per-call limit below is the one that applies; this only bounds a misbehaving provider.
  timeout: MAX_SEARCH_TIMEOUT_MS + 5_000,
  requires: { net: { hosts: [...SEARCH_PROVIDER_HOSTS] } },
  access: (input) => ({ subject: input.query }),
  variables: [
    ...SEARCH_PROVIDER_VARIABLES,
    {
      name: 'WEB_SEARCH_MAX_CALLS',
      type: 'text',
      required: false,
      description: 'Most web_search calls one thread may make',
      default: String(DEFAULT_MAX_CALLS),
    },
    {
      name: 'WEB_SEARCH_TIMEOUT_MS',
      type: 'text',
      required: false,
      description: `Time limit of one web_search call in milliseconds (at most ${MAX_SEARCH_TIMEOUT_MS})`,
      default: String(DEFAULT_SEARCH_TIMEOUT_MS),
    },
  ],
  execute: async (state, input) => {
    let provider: ReturnType<typeof selectProvider>;
    let maxCalls: number;
    let timeoutMs: number;
    try {
      provider = selectProvider(state.threadId, state.tenvs);
      maxCalls = positiveIntVariable(state.tenvs, 'WEB_SEARCH_MAX_CALLS', DEFAULT_MAX_CALLS, Number.MAX_SAFE_INTEGER);
      timeoutMs = positiveIntVariable(
        state.tenvs,
        'WEB_SEARCH_TIMEOUT_MS',
        DEFAULT_SEARCH_TIMEOUT_MS,
        MAX_SEARCH_TIMEOUT_MS,
      );
    } catch (error) {
      return { status: 'error', error: `web_search: ${(error as Error).message}` };
    }

    // Every attempt counts, failed ones too: the cap bounds what the thread costs.
    const calls = (await state.getValue<number>(CALLS_KEY)) ?? 0;
    if (calls >= maxCalls) {
      return {
        status: 'error',
        error: `web_search: this thread has used all ${maxCalls} of its searches; answer with what you have`,
      };
    }
    await state.setValue(CALLS_KEY, calls + 1);

    // Aborts when the time limit passes or the thread stops the call (EXE-5); the reason tells which.
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = state.execution ? AbortSignal.any([timeout, state.execution.abortSignal]) : timeout;
    try {
      // Through state.fetch: a provider base URL from a variable passes the egress policy.
      const results = await provider.search(input.query, input.max_results, {
        fetch: (target, init) => state.fetch(target, init),
        signal,
      });
      return { status: 'success', result: JSON.stringify({ results }) };
    } catch (error) {
      if (isTimeout(signal.reason)) {
        return { status: 'error', error: `web_search: ${provider.name} did not answer within ${timeoutMs} ms` };
      }
      if (signal.aborted) return { status: 'error', error: 'web_search: the call was stopped' };
      if (error instanceof SearchProviderError) return { status: 'error', error: `web_search: ${error.message}` };
      return { status: 'error', error: `web_search: ${provider.name} failed: ${(error as Error).message}` };
    }
  },
});

/** `AbortSignal.timeout`'s reason; a stop carries the caller's own reason instead. */
function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}
