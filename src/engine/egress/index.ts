/**
 * Egress (containment): which URLs the runtime may contact on a model's behalf, IP addresses in every
 * spelling, and `state.fetch`, which checks every redirect hop.
 */
export type { EgressPolicy } from './egress-policy.js';
export { canonicalHost, canonicalHostName, egressPolicy } from './egress-policy.js';
export type { FetchTransport } from './outbound-fetch.js';
export { outboundFetch } from './outbound-fetch.js';
