/**
 * The body of one `streamGenerateContent` request (THR-4): the conversation, the tools as function
 * declarations, the tool choice as a function-calling mode, and the model's settings as
 * `generationConfig`:
 *
 * - temperature, maxOutputTokens, topP map one to one; `stop` becomes `stopSequences`;
 * - reasoningEffort becomes `thinkingConfig`: a `thinkingLevel` (LOW / MEDIUM / HIGH) for Gemini 3
 *   and later, a `thinkingBudget` in tokens for the Gemini 2 family, which has no levels (Gemini
 *   answers 400 to a request that sets both). Thoughts are not requested (`includeThoughts` stays
 *   off), and any that arrive are never answer text (stream.ts);
 * - responseFormat becomes `responseMimeType: application/json` with the schema as
 *   `responseJsonSchema`;
 * - Gemini has no switch for parallel tool calls: `parallelToolCalls` is not sent.
 */
import type { ModelRequest, RequestSettings } from '../../engine/ports/index.js';
import { geminiJsonSchema, hasProperties } from './json-schema.js';
import { toGeminiConversation } from './messages.js';
import type {
  FunctionCallingMode,
  FunctionDeclaration,
  GenerateContentRequest,
  GenerationConfig,
  ThinkingConfig,
} from './request-shapes.js';

const MODES: Record<NonNullable<ModelRequest['toolChoice']>, FunctionCallingMode> = {
  auto: 'AUTO',
  none: 'NONE',
  required: 'ANY',
};

/** Thinking tokens per effort for the Gemini 2 family (within 2.5 Flash's 0–24 576 and 2.5 Pro's 128–32 768). */
const THINKING_BUDGETS = { low: 1024, medium: 8192, high: 24576 } as const;

const THINKING_LEVELS = { low: 'LOW', medium: 'MEDIUM', high: 'HIGH' } as const;

export function requestBody(request: ModelRequest): GenerateContentRequest {
  const body: GenerateContentRequest = toGeminiConversation(request.messages);
  if (request.tools.length > 0) {
    body.tools = [{ functionDeclarations: request.tools.map(({ function: tool }) => declaration(tool)) }];
    if (request.toolChoice !== undefined) {
      body.toolConfig = { functionCallingConfig: { mode: MODES[request.toolChoice] } };
    }
  }
  const generationConfig = generationConfigOf(request.settings, request.model);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function declaration(tool: ModelRequest['tools'][number]['function']): FunctionDeclaration {
  const out: FunctionDeclaration = { name: tool.name, description: tool.description };
  if (hasProperties(tool.parameters)) out.parametersJsonSchema = geminiJsonSchema(tool.parameters);
  return out;
}

function generationConfigOf(settings: RequestSettings | undefined, model: string): GenerationConfig {
  const config: GenerationConfig = {};
  if (!settings) return config;
  if (settings.temperature !== undefined) config.temperature = settings.temperature;
  if (settings.maxOutputTokens !== undefined) config.maxOutputTokens = settings.maxOutputTokens;
  if (settings.topP !== undefined) config.topP = settings.topP;
  if (settings.stop !== undefined) config.stopSequences = settings.stop;
  if (settings.reasoningEffort !== undefined) config.thinkingConfig = thinkingConfig(settings.reasoningEffort, model);
  if (settings.responseFormat) {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = geminiJsonSchema(settings.responseFormat.schema);
  }
  return config;
}

/** Whether the model is of the Gemini 1 or 2 family (`gemini-2.5-flash`, `models/gemini-2.0-pro`...). */
function takesThinkingBudget(model: string): boolean {
  return /(^|\/)gemini-[12][.-]/.test(model);
}

function thinkingConfig(effort: keyof typeof THINKING_LEVELS, model: string): ThinkingConfig {
  return takesThinkingBudget(model)
    ? { thinkingBudget: THINKING_BUDGETS[effort] }
    : { thinkingLevel: THINKING_LEVELS[effort] };
}
