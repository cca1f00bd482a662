/**
 * The `web_search` provider registry (LOCK-3): the adapters, which of them a thread's variables turn
 * on, and the stable per-thread choice among those (seed 003: hash the session id, so a flaky provider
 * fails consistently and one thread never wanders between providers).
 */
import type { VariableDefinition } from '../../../spec/index.js';
import { brave } from './brave.js';
import { searxng } from './searxng.js';
import { tavily } from './tavily.js';
import { type ProviderAdapter, type SearchProvider, SearchProviderError } from './types.js';

export type { ProviderAdapter, SearchProvider, SearchResult } from './types.js';
export { SearchProviderError } from './types.js';

/** In a fixed order: the hash indexes into the configured ones in this order. */
export const SEARCH_ADAPTERS: readonly ProviderAdapter[] = [brave, tavily, searxng];

/** Pins one configured provider by name instead of hashing. */
export const PROVIDER_VARIABLE = 'WEB_SEARCH_PROVIDER';

export const SEARCH_PROVIDER_VARIABLES: readonly VariableDefinition[] = [
  ...SEARCH_ADAPTERS.flatMap((adapter) => adapter.variables),
  {
    name: PROVIDER_VARIABLE,
    type: 'text',
    required: false,
    description: `Name of the web_search provider to use when several are configured (${SEARCH_ADAPTERS.map((a) => a.name).join(', ')}); by default each thread picks one by its id`,
  },
];

export const SEARCH_PROVIDER_HOSTS: readonly string[] = SEARCH_ADAPTERS.flatMap((adapter) => adapter.hosts);

/** 32-bit FNV-1a over the UTF-16 code units: small, fast and spreads similar ids well. */
export function stableIndex(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/** The provider a thread uses: the pinned one, else the thread id's pick among the configured ones. */
export function selectProvider(
  threadId: string,
  variables: Readonly<Record<string, string>>,
  adapters: readonly ProviderAdapter[] = SEARCH_ADAPTERS,
): SearchProvider {
  const configured = adapters
    .map((adapter) => adapter.create(variables))
    .filter((provider): provider is SearchProvider => provider !== null);
  const pinned = variables[PROVIDER_VARIABLE]?.trim().toLowerCase();
  if (pinned) {
    const provider = configured.find((candidate) => candidate.name === pinned);
    if (provider) return provider;
    const adapter = adapters.find((candidate) => candidate.name === pinned);
    throw new SearchProviderError(
      adapter
        ? `${PROVIDER_VARIABLE} names "${pinned}", which is not configured: set ${adapter.enabledBy}`
        : `${PROVIDER_VARIABLE} names an unknown provider "${pinned}"; known: ${adapters.map((a) => a.name).join(', ')}`,
    );
  }
  const provider = configured[stableIndex(threadId, configured.length || 1)];
  if (provider) return provider;
  throw new SearchProviderError(
    `no web search provider is configured: set one of the variables ${adapters.map((a) => a.enabledBy).join(', ')} on the thread, its agent or its prompt`,
  );
}
