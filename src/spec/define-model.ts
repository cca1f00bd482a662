/**
 * `defineModel` (DEF-6, THR-4): a named model a prompt refers to, on one of the providers — the
 * OpenAI-compatible Chat Completions protocol (`openai`), Anthropic's Messages API (`anthropic`),
 * Google's Gemini API (`google`), the Workers AI binding (`workers-ai`) — or a script (`scripted`),
 * for tests and offline use. Each model names where its endpoint and its key come from, so one Worker
 * can serve models of several providers and accounts; its settings, context window and prices shape
 * every request and the thread's usage totals.
 */
import type { z } from 'zod';
import { DefinitionError } from './definition-error.js';
import type { JsonSchema } from './schema.js';
import type { ToolCall } from './types/index.js';

/** A chat message in the shape providers receive (OpenAI Chat Completions). */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ModelContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string | ModelContentPart[]; tool_call_id: string };

/**
 * A part of a message's content, in Chat Completions' shape: text, an image as a URL (a `data:` URL
 * for bytes the runtime holds), or a file (a PDF as a `data:` URL, the Chat Completions file part).
 */
export type ModelContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

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
  /** The step's token usage; by default an estimate of four characters a token. */
  usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number };
}

/** In a `dual_ai` thread: the side a model step answers for, and the tool that ends its session, if any. */
export interface ModelSide {
  name: 'a' | 'b';
  stopTool?: string;
}

export interface ScriptedRequest {
  messages: readonly ModelMessage[];
  toolNames: readonly string[];
  /** The offered tools' argument schemas (JSON Schema), by tool name. */
  toolSchemas?: Readonly<Record<string, JsonSchema>>;
  /** Set in a `dual_ai` thread: which side this step is for. */
  side?: ModelSide;
}

/**
 * A list is played by position: the reply for the Nth model step since the last user message.
 * A function chooses from the request.
 */
export type Script = readonly ScriptedReply[] | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

export const MODEL_PROVIDERS = ['openai', 'anthropic', 'google', 'workers-ai', 'scripted'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A structured answer (validated against `schema` when it arrives; a mismatch fails the turn). */
export interface ResponseFormat {
  /** A name the provider may show the model; default `response`. */
  name?: string;
  schema: z.ZodObject;
}

/** How a model answers, set on the model and overridable per prompt (`definePrompt({ modelSettings })`). */
export interface ModelSettings {
  /** 0 to 2. */
  temperature?: number;
  /** The most tokens one answer may have. Anthropic requires it; its default there is 4096. */
  maxOutputTokens?: number;
  /** 0 to 1. */
  topP?: number;
  /** At most 4 sequences that end an answer. */
  stop?: string[];
  /** For the reasoning models that have it (OpenAI, Anthropic extended thinking, Gemini thinking). */
  reasoningEffort?: 'low' | 'medium' | 'high';
  responseFormat?: ResponseFormat;
}

/** US dollars per million tokens, for the thread's cost totals and `maxCost` budgets. */
export interface ModelPrices {
  input: number;
  output: number;
  /** Input tokens served from the provider's prompt cache; default the input price. */
  cachedInput?: number;
}

export interface ModelDefinition {
  name: string;
  provider: ModelProvider;
  /**
   * The provider's model id (`gpt-4o-mini`, `claude-sonnet-4-5`, `gemini-2.5-flash`,
   * `@cf/meta/llama-3.3-70b-instruct-fp8-fast`). For `openai`, the MODEL variable when omitted.
   */
  model?: string;
  /** The endpoint, when not the provider's own (OpenRouter, Ollama, a gateway, a test server). */
  baseURL?: string;
  /**
   * The Worker variable holding the endpoint, read when `baseURL` is not given. Default
   * `OPENAI_BASE_URL` for `openai`, `ANTHROPIC_BASE_URL` for `anthropic`, `GOOGLE_BASE_URL` for `google`.
   */
  baseURLVariable?: string;
  /**
   * The Worker variable (a secret) holding the API key. Default `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`,
   * `GOOGLE_API_KEY`. Not used by `workers-ai`, which calls its binding.
   */
  apiKeyVariable?: string;
  /** For `workers-ai`: the name of the AI binding in wrangler.toml. Default `AI`. */
  binding?: string;
  /** Names of models tried in order when this one fails after its retries (THR-4). */
  fallbacks?: string[];
  /** For `scripted`: the replies. Without one, a demo script answers by calling named tools. */
  script?: Script;
  /** Whether the model accepts image parts (EXE-9). Default false. */
  vision?: boolean;
  /**
   * Whether the model reads PDF files sent with a user's message (MSG-11). Default: a `vision` model
   * does, except on `workers-ai`, whose models take no files; otherwise the model gets a note naming
   * the file.
   */
  pdf?: boolean;
  settings?: ModelSettings;
  /** The most tokens a request may hold; older turns are compacted to fit. Unlimited when omitted. */
  contextWindow?: number;
  /** The model that summarises older turns when the context is full; default this model. */
  compactWith?: string;
  prices?: ModelPrices;
}

const REASONING_EFFORTS = ['low', 'medium', 'high'];

/** What is wrong with a settings object, or null; `where` starts the message. */
export function modelSettingsProblem(settings: ModelSettings | undefined, where: string): string | null {
  if (!settings) return null;
  const { temperature, maxOutputTokens, topP, stop, reasoningEffort, responseFormat } = settings;
  if (temperature !== undefined && !(temperature >= 0 && temperature <= 2))
    return `${where}: temperature must be 0 to 2`;
  if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)) {
    return `${where}: maxOutputTokens must be a positive integer`;
  }
  if (topP !== undefined && !(topP >= 0 && topP <= 1)) return `${where}: topP must be 0 to 1`;
  if (
    stop !== undefined &&
    !(Array.isArray(stop) && stop.length <= 4 && stop.every((s) => typeof s === 'string' && s))
  ) {
    return `${where}: stop must be at most 4 non-empty strings`;
  }
  if (reasoningEffort !== undefined && !REASONING_EFFORTS.includes(reasoningEffort)) {
    return `${where}: reasoningEffort must be "low", "medium" or "high"`;
  }
  if (responseFormat !== undefined) {
    const type = (responseFormat.schema as { _zod?: { def?: { type?: string } } } | undefined)?._zod?.def?.type;
    if (type !== 'object') return `${where}: responseFormat.schema must be a Zod object schema`;
  }
  return null;
}

export function defineModel(options: ModelDefinition): ModelDefinition {
  if (!options.name?.trim()) throw new DefinitionError('defineModel: name must be a non-empty string');
  const where = `defineModel "${options.name}"`;
  if (!MODEL_PROVIDERS.includes(options.provider)) {
    throw new DefinitionError(
      `${where}: provider must be one of ${MODEL_PROVIDERS.map((p) => `"${p}"`).join(', ')}, got "${String(options.provider)}"`,
    );
  }
  const settingsProblem = modelSettingsProblem(options.settings, where);
  if (settingsProblem) throw new DefinitionError(settingsProblem);
  if (options.contextWindow !== undefined && !(Number.isInteger(options.contextWindow) && options.contextWindow > 0)) {
    throw new DefinitionError(`${where}: contextWindow must be a positive number of tokens`);
  }
  const prices = options.prices;
  if (prices && ![prices.input, prices.output, prices.cachedInput ?? 0].every((p) => Number.isFinite(p) && p >= 0)) {
    throw new DefinitionError(`${where}: prices must be non-negative numbers of dollars per million tokens`);
  }
  return { ...options, fallbacks: options.fallbacks ?? [] };
}
