/**
 * `SubpromptConfig` (SUB-1): how a prompt offers another prompt as a tool. The sub-prompt runs
 * inside the calling thread, its messages kept apart one level deeper; the config shapes what the
 * call returns and which arguments start it.
 */
import { DefinitionError } from './definition-error.js';
import { checkInitProperties } from './subagent-tool-config.js';

export interface SubpromptConfig {
  /** The prompt's name (a `definePrompt` with `exposeAsTool: true`, or listed with this config). */
  name: string;
  /** Whether the sub-prompt's final text answer is returned. Default true. */
  includeTextResponse?: boolean;
  /** Whether the sub-prompt's tool calls are returned, each with its arguments and result. Default false. */
  includeToolCalls?: boolean;
  /** Whether failed tool calls and the sub-prompt's own failure are reported in detail. Default true. */
  includeErrors?: boolean;
  /** The argument whose text becomes the sub-prompt's user message. Default `message`. */
  initUserMessageProperty?: string;
  /** An argument carrying paths of this thread's files attached to that user message. */
  initAttachmentsProperty?: string;
}

/** Keys only a SubpromptConfig has: a config with one of them names a prompt. */
export const SUBPROMPT_ONLY_KEYS = ['includeTextResponse', 'includeToolCalls', 'includeErrors'] as const;

export function checkSubpromptConfig(prompt: string, config: SubpromptConfig): SubpromptConfig {
  if (!config.name?.trim())
    throw new DefinitionError(`definePrompt "${prompt}": a prompt tool needs the prompt's name`);
  checkInitProperties(`definePrompt "${prompt}": prompt tool "${config.name}"`, [
    config.initUserMessageProperty,
    config.initAttachmentsProperty,
  ]);
  return { ...config };
}
