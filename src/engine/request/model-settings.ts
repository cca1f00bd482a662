/**
 * A request's model settings (THR-4): the model's own (`defineModel({ settings })`) with the prompt's
 * over them (`definePrompt({ modelSettings })`), the response format's Zod schema sent as JSON Schema;
 * and, when an answer arrives, whether it matches that format.
 */
import { argumentsJsonSchema, type ModelDefinition, type PromptDefinition } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';
import type { RequestSettings } from '../ports/index.js';

export function requestSettings(model: ModelDefinition, prompt: PromptDefinition): RequestSettings | undefined {
  const merged = { ...model.settings, ...prompt.modelSettings };
  if (Object.keys(merged).length === 0) return undefined;
  const { responseFormat, ...rest } = merged;
  if (!responseFormat) return rest;
  return {
    ...rest,
    responseFormat: { name: responseFormat.name ?? 'response', schema: argumentsJsonSchema(responseFormat.schema) },
  };
}

/**
 * Why a final answer does not match the prompt's or model's response format, or null when it does
 * (or there is none). An answer that calls tools is not a final answer.
 */
export function responseFormatProblem(model: ModelDefinition, prompt: PromptDefinition, text: string): string | null {
  const format = prompt.modelSettings?.responseFormat ?? model.settings?.responseFormat;
  if (!format) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `the model's answer is not the JSON its response format asks for: ${text.slice(0, 200)}`;
  }
  const checked = format.schema.safeParse(value);
  return checked.success
    ? null
    : `the model's answer does not match its response format: ${describeIssues(checked.error)}`;
}
