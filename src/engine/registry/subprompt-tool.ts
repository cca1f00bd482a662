/**
 * A prompt offered as a tool (SUB-1): its arguments, and how a call's arguments become the
 * sub-prompt's first user message. The call itself runs nested in the calling thread (subprompt.ts);
 * the loop binds the definition's `execute` to that run, since running a prompt needs the engine.
 */
import { z } from 'zod';
import type { AnyToolDefinition, PromptDefinition, SubpromptConfig } from '../../spec/index.js';
import { argumentsJsonSchema } from '../../spec/index.js';
import { DefinitionError, defineTool, MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';
import type { ResolvedTool } from './types.js';

const DEFAULT_MESSAGE_PROPERTY = 'message';

/**
 * The tool's arguments: the prompt's `requiredSchema` when it has one, else a single message; plus
 * the attachments argument when the config names one.
 */
function argumentsFor(prompt: PromptDefinition, config: SubpromptConfig): z.ZodObject {
  const messageProperty = config.initUserMessageProperty ?? DEFAULT_MESSAGE_PROPERTY;
  let schema =
    prompt.requiredSchema ??
    z.object({ [messageProperty]: z.string().min(1).describe('The request the prompt answers') });
  if (config.initAttachmentsProperty && !(config.initAttachmentsProperty in schema.shape)) {
    schema = schema.extend({
      [config.initAttachmentsProperty]: z
        .array(z.string())
        .default([])
        .describe('Paths of files of this thread to attach to the request'),
    });
  }
  return schema;
}

/** Why a prompt tool's body is never called directly: the loop replaces it (see bindSubprompts). */
const UNBOUND = 'prompt tools run through the agent loop';

export function subpromptTool(prompt: PromptDefinition, config: SubpromptConfig): ResolvedTool {
  const args = argumentsFor(prompt, config);
  const property = config.initUserMessageProperty;
  if (property && prompt.requiredSchema && !(property in prompt.requiredSchema.shape)) {
    throw new DefinitionError(
      `prompt tool "${prompt.name}": initUserMessageProperty "${property}" is not a property of its requiredSchema`,
    );
  }
  const definition = defineTool({
    description: prompt.toolDescription || `Run the ${prompt.name} prompt on a request and return its answer`,
    args,
    acpKind: 'other',
    // The files a call attaches are read on the model's behalf: checked like any read (LOCK-5, PERM-1).
    requires: config.initAttachmentsProperty ? { fs: { read: ['{workspace}/**'] } } : {},
    access: (callArgs: Record<string, unknown>) => ({ read: attachedPaths(config, callArgs) }),
    // The nested run is resumed from its own messages after a restart, never started twice.
    idempotent: true,
    timeout: MAX_TOOL_TIMEOUT_MS,
    variables: [],
    execute: async () => ({ status: 'error', error: UNBOUND }),
  }) as unknown as AnyToolDefinition;
  return {
    name: prompt.name,
    definition,
    parameters: argumentsJsonSchema(args),
    subprompt: { prompt, config },
  };
}

/** The user message a call starts the sub-prompt with: the message argument, or all the arguments as JSON. */
export function initialMessage(prompt: PromptDefinition, config: SubpromptConfig, args: Record<string, unknown>) {
  const property = config.initUserMessageProperty ?? (prompt.requiredSchema ? undefined : DEFAULT_MESSAGE_PROPERTY);
  const value = property ? args[property] : undefined;
  if (typeof value === 'string') return value;
  const rest = { ...args };
  if (config.initAttachmentsProperty) delete rest[config.initAttachmentsProperty];
  return JSON.stringify(rest);
}

/** The paths a call attaches to the sub-prompt's user message. */
export function attachedPaths(config: SubpromptConfig, args: Record<string, unknown>): string[] {
  const value = config.initAttachmentsProperty ? args[config.initAttachmentsProperty] : undefined;
  return Array.isArray(value) ? value.filter((path): path is string => typeof path === 'string') : [];
}
