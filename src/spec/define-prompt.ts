/**
 * `definePrompt` (DEF-6): a system prompt, the model it runs on and the tools it may call.
 */
import type { z } from 'zod';
import { DefinitionError } from './define-tool.js';
import type { VariableDefinition } from './types.js';
import { variablesFromTenvs } from './variables.js';

export interface PromptDefinition {
  name: string;
  /** How the prompt describes itself when exposed as a tool. */
  toolDescription: string;
  /** The system prompt. */
  prompt: string;
  /** Name of a model from defineModel. */
  model: string;
  /** Names of the tools this prompt may call. */
  tools: string[];
  /** Whether earlier conversation is sent to the model. Default true. */
  includeChat: boolean;
  /** Whether tool calls and results of earlier turns are sent. Default true. */
  includePastTools: boolean;
  parallelToolCalls: boolean | undefined;
  toolChoice: 'auto' | 'none' | 'required' | undefined;
  requiredSchema: z.ZodObject | undefined;
  variables: VariableDefinition[];
  exposeAsTool: boolean;
}

export interface DefinePromptOptions {
  name: string;
  toolDescription?: string;
  prompt: string;
  model: string;
  tools?: string[];
  includeChat?: boolean;
  includePastTools?: boolean;
  parallelToolCalls?: boolean;
  toolChoice?: 'auto' | 'none' | 'required';
  requiredSchema?: z.ZodObject;
  variables?: VariableDefinition[];
  tenvs?: z.ZodObject;
  exposeAsTool?: boolean;
}

export function definePrompt(options: DefinePromptOptions): PromptDefinition {
  if (!options.name?.trim()) throw new DefinitionError('definePrompt: name must be a non-empty string');
  if (typeof options.prompt !== 'string') {
    throw new DefinitionError(`definePrompt "${options.name}": prompt must be a string`);
  }
  if (!options.model?.trim()) {
    throw new DefinitionError(`definePrompt "${options.name}": model must name a defineModel model`);
  }
  return {
    name: options.name,
    toolDescription: options.toolDescription ?? '',
    prompt: options.prompt,
    model: options.model,
    tools: options.tools ?? [],
    includeChat: options.includeChat ?? true,
    includePastTools: options.includePastTools ?? true,
    parallelToolCalls: options.parallelToolCalls,
    toolChoice: options.toolChoice,
    requiredSchema: options.requiredSchema,
    variables: [...(options.variables ?? []), ...variablesFromTenvs(options.tenvs)],
    exposeAsTool: options.exposeAsTool ?? false,
  };
}
