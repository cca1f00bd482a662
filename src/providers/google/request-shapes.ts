/**
 * The Gemini API's request shapes as this provider sends them (THR-4): the subset of
 * `GenerateContentRequest` a model step needs. Field names and nesting follow Google's REST
 * reference and its official SDK's types (googleapis/js-genai `src/types.ts`); responses are read
 * defensively as unknown JSON in stream.ts instead, since servers add fields freely.
 */
import type { JsonSchema } from '../../spec/index.js';

export interface InlineData {
  mimeType: string;
  /** Base64, as in a data: URL. */
  data: string;
}

export interface FunctionCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name: string;
  /** Must be a JSON object: the function's output under `output` (Google's convention). */
  response: Record<string, unknown>;
}

/** One part of a turn: exactly one of text, inline data, a function call or a function response. */
export interface Part {
  text?: string;
  inlineData?: InlineData;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  /** Carried by a model turn's first function call; see messages.ts. */
  thoughtSignature?: string;
}

export interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

export interface FunctionDeclaration {
  name: string;
  description: string;
  /** JSON Schema of an object; omitted for a function without parameters. */
  parametersJsonSchema?: JsonSchema;
}

export type FunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export type ThinkingLevel = 'LOW' | 'MEDIUM' | 'HIGH';

/** Gemini 2.5 takes a budget of thinking tokens; Gemini 3 and later take a level. Never both. */
export type ThinkingConfig = { thinkingBudget: number } | { thinkingLevel: ThinkingLevel };

export interface GenerationConfig {
  temperature?: number;
  maxOutputTokens?: number;
  topP?: number;
  stopSequences?: string[];
  thinkingConfig?: ThinkingConfig;
  responseMimeType?: string;
  responseJsonSchema?: JsonSchema;
}

export interface GenerateContentRequest {
  contents: Content[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: FunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: { mode: FunctionCallingMode } };
  generationConfig?: GenerationConfig;
}
