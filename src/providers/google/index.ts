/**
 * The Google Gemini provider (THR-4): Gemini's native `streamGenerateContent` API, with tool calls,
 * images (EXE-9), thinking, structured output and retries. Native rather than Gemini's
 * OpenAI-compatible endpoint: google.ts says why.
 */
import type { HttpProviderKind } from '../transport/index.js';
import { GoogleProvider } from './google.js';

export type { GoogleProviderOptions } from './google.js';
export { GoogleProvider } from './google.js';

export const googleKind: HttpProviderKind = {
  via: 'http',
  title: 'Google Gemini',
  keyVariable: 'GOOGLE_API_KEY',
  baseURLVariable: 'GOOGLE_BASE_URL',
  defaultBaseURL: 'https://generativelanguage.googleapis.com',
  create: (endpoint) => new GoogleProvider(endpoint),
};
