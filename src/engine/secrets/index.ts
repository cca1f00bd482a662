/**
 * Secrets never shown (EXE-8, VAR-3): the scrubber every stored, streamed or logged byte passes.
 */
export type { SecretScrubber } from './secret-scrubber.js';
export { createScrubber, NO_SECRETS, scrubMessage } from './secret-scrubber.js';
