/**
 * The agent of test/workers/coalesced-text.test.ts (THR-9): its model is the local OpenAI-compatible
 * server, whose replies a test scripts in its own message (with a pause between deltas, or an error
 * after some text), and the interval the test Worker coalesces streamed text by.
 */
import { defineAgent, definePrompt } from '../../src/index.js';

/**
 * `limits.deltaFlushMs` of the test Worker: a minute, longer than any test, so no timer sends held
 * text while a test runs. A step's first delta goes out at once; the rest of its text goes out
 * joined with the step's next frame, which makes the frames a test sees the same on every run.
 */
export const DELTA_FLUSH_MS = 60_000;

export const prompts = [definePrompt({ name: 'coalesce_remote', prompt: 'You are a test agent.', model: 'remote' })];

export const agents = [defineAgent({ name: 'coalesce', sideA: { prompt: 'coalesce_remote' } })];
