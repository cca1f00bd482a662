/**
 * The built-in tools, registered under their locked ids (LOCK-1). A prompt offers one by listing its
 * id in `tools`, exactly like an application tool; an application tool may not reuse an id.
 */
import type { AnyToolDefinition } from '../spec/index.js';
import { question } from './question.js';

export const builtinTools: Readonly<Record<string, AnyToolDefinition>> = {
  question,
};
