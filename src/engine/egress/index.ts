/** The egress room's door: what the rest of the runtime may use of it. */
export type { EgressPolicy } from './egress-policy.js';
export { canonicalHost, canonicalHostName, egressPolicy } from './egress-policy.js';
export type { FetchTransport } from './outbound-fetch.js';
export { outboundFetch } from './outbound-fetch.js';
