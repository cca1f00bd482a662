/** The secrets room's door: what the rest of the runtime may use of it. */
export type { SecretScrubber } from './secret-scrubber.js';
export { createScrubber, NO_SECRETS, scrubMessage } from './secret-scrubber.js';
