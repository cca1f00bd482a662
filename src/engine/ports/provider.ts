/**
 * The model provider seam: the engine asks for one model step and receives text deltas as they
 * arrive. Implementations live in src/providers.
 */
import type { JsonSchema, ModelMessage, ModelSide, ToolCall } from '../../spec/index.js';

export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A model's settings as a request carries them: the response format's schema as JSON Schema. */
export interface RequestSettings {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  stop?: string[];
  reasoningEffort?: 'low' | 'medium' | 'high';
  responseFormat?: { name: string; schema: JsonSchema };
}

export interface ModelRequest {
  /** The provider's model id. */
  model: string;
  messages: readonly ModelMessage[];
  tools: readonly ModelTool[];
  toolChoice?: 'auto' | 'none' | 'required';
  parallelToolCalls?: boolean;
  settings?: RequestSettings;
  signal?: AbortSignal;
  /** In a `dual_ai` thread, the side the step is for: real models ignore it; a script may answer by it. */
  side?: ModelSide;
}

export interface ModelUsage {
  /** Input tokens, cached ones included. */
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Input tokens the provider served from its prompt cache, when it says. */
  cachedTokens?: number;
}

/** Usage summed over model steps (a thread's, a turn's, one step's), as stored and streamed. */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens served from a prompt cache (part of input_tokens). */
  cached_tokens: number;
  total_tokens: number;
  /** US dollars, for the steps whose model declares prices. */
  cost_usd: number;
  steps: number;
  /** Steps whose model declares no prices: cost_usd leaves them out. */
  unpriced_steps: number;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: ModelUsage | null;
  finishReason: string | null;
  /** The model that answered (a fallback may have). */
  model: string;
}

/**
 * A tool call's arguments as they stream (ARGS-1): `argumentsText` is the whole text so far, not the
 * new piece, so a reader that misses one (coalesced, reconnected) still has everything. `id` is the
 * id the finished call will carry.
 */
export interface ToolCallDelta {
  id: string;
  name: string;
  argumentsText: string;
}

export interface StreamHandlers {
  onTextDelta?(delta: string): void;
  /** A tool call's arguments grew (ARGS-1). */
  onToolCallDelta?(delta: ToolCallDelta): void;
}

export interface Provider {
  complete(request: ModelRequest, handlers?: StreamHandlers): Promise<ModelResponse>;
  /**
   * The provider's id of the model it asks first, when it resolves one itself (an OpenAI-compatible
   * model's id comes from the `MODEL` variable): what a step's span names as the requested model.
   */
  readonly modelId?: string;
}

/** A provider failure after retries; `status` is the HTTP status when there was one. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
