/**
 * Egress (containment): which URLs the runtime may contact on a model's behalf, IP addresses in every
 * spelling, `state.fetch`, which checks every redirect hop, and the global `fetch` inside a tool call,
 * which is that call's `state.fetch`.
 */
export type { EgressPolicy } from './egress-policy.js';
export { canonicalHost, canonicalHostName, checkEgress, egressPolicy } from './egress-policy.js';
export { canonicalHostPattern } from './host-names.js';
export type { FetchTransport } from './outbound-fetch.js';
export { outboundFetch } from './outbound-fetch.js';
export type { ToolNetwork } from './tool-network.js';
export { runInToolCall, runtimeFetch, withoutNetwork } from './tool-network.js';
