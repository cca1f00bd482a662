/**
 * What the resolver needs to know of each provider (THR-4): where its endpoint and key come from by
 * default, and how to build it once they are known. An HTTP provider is reached at a base URL with an
 * API key; a binding provider (Workers AI) is called through a binding of the Worker.
 */
import type { Provider } from '../../engine/ports/index.js';

export interface HttpEndpoint {
  baseURL: string;
  apiKey: string | undefined;
}

export interface HttpProviderKind {
  via: 'http';
  /** How messages name it: "Anthropic". */
  title: string;
  /** The Worker variable holding the key when the model names none. */
  keyVariable: string;
  /** The Worker variable holding the endpoint when the model names none. */
  baseURLVariable: string;
  defaultBaseURL: string;
  create(endpoint: HttpEndpoint): Provider;
}

export interface BindingProviderKind {
  via: 'binding';
  title: string;
  /** The binding's name in wrangler.toml when the model names none. */
  defaultBinding: string;
  /** Whether a value of the env is such a binding. */
  accepts(binding: unknown): boolean;
  create(binding: unknown): Provider;
}

export type ProviderKind = HttpProviderKind | BindingProviderKind;
