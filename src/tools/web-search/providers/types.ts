/**
 * The `web_search` provider seam (LOCK-3, seed 003 "Web search"): a provider turns a query into at most
 * `maxResults` results; an adapter builds a provider from the thread's variables when they configure it.
 */
import type { ThreadState, VariableDefinition } from '../../../spec/index.js';

/** One result, in the shape `web_search` publishes. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/**
 * How a provider reaches its API: through the thread's `state.fetch`, so a base URL taken from a
 * variable passes the egress policy, and within the call's deadline.
 */
export interface SearchCall {
  fetch: ThreadState['fetch'];
  signal: AbortSignal;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, maxResults: number, call: SearchCall): Promise<SearchResult[]>;
}

export interface ProviderAdapter {
  readonly name: string;
  /** The variable whose value turns the adapter on. */
  readonly enabledBy: string;
  /** Every variable the adapter reads. */
  readonly variables: readonly VariableDefinition[];
  /** Hosts it reaches when its base URL is not overridden. */
  readonly hosts: readonly string[];
  /** A provider when the variables configure this adapter, otherwise null; throws on a bad value. */
  create(variables: Readonly<Record<string, string>>): SearchProvider | null;
}

/** A provider or configuration failure, worded for the model; never carries a secret. */
export class SearchProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchProviderError';
  }
}
