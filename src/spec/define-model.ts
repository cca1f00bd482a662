/**
 * `defineModel` (DEF-6): a named model a prompt refers to. `provider: 'openai'` speaks the
 * OpenAI-compatible Chat Completions protocol (configured by OPENAI_BASE_URL, OPENAI_API_KEY, MODEL);
 * `provider: 'scripted'` answers from a script, for tests and offline use.
 */
import { DefinitionError } from './definition-error.js';
import type { ToolCall } from './types.js';

/** A chat message in the shape providers receive (OpenAI Chat Completions). */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ModelContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string | ModelContentPart[]; tool_call_id: string };

export type ModelContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ScriptedToolCall {
  name: string;
  /** An object is serialised to JSON; a string is sent as is (so tests can send malformed JSON). */
  arguments?: string | Record<string, unknown>;
  id?: string;
}

/** One model step of a script: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

export interface ScriptedRequest {
  messages: readonly ModelMessage[];
  toolNames: readonly string[];
}

/**
 * A list is played by position: the reply for the Nth model step since the last user message.
 * A function chooses from the request.
 */
export type Script = readonly ScriptedReply[] | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

export interface ModelDefinition {
  name: string;
  provider: 'openai' | 'scripted';
  /** The provider's model id; for `openai`, the MODEL variable when omitted. */
  model?: string;
  /** Names of models tried in order when this one fails after its retries (THR-4). */
  fallbacks?: string[];
  /** For `scripted`: the replies. Without one, a demo script answers by calling named tools. */
  script?: Script;
  /** Whether the model accepts image parts (EXE-9). Default false. */
  vision?: boolean;
}

export function defineModel(options: ModelDefinition): ModelDefinition {
  if (!options.name?.trim()) throw new DefinitionError('defineModel: name must be a non-empty string');
  if (options.provider !== 'openai' && options.provider !== 'scripted') {
    throw new DefinitionError(
      `defineModel "${options.name}": provider must be "openai" or "scripted", got "${String(options.provider)}"`,
    );
  }
  return { ...options, fallbacks: options.fallbacks ?? [] };
}
