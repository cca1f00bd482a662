/**
 * The first stages of the executor pipeline (EXE-1): find the tool, parse the model's JSON
 * arguments and validate them against the tool's schema. Each failure is a message for the model.
 */
import type { z } from 'zod';
import type { ToolCall } from '../../spec/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { invalidArgumentsMessage, malformedArgumentsMessage, unknownToolMessage } from './tool-call-error.js';

export interface ValidatedCall {
  call: ToolCall;
  tool: ResolvedTool;
  /** Parsed and validated, defaults applied; `undefined` for a tool without arguments (DEF-3). */
  args: unknown;
}

export type Validation = { ok: true; value: ValidatedCall } | { ok: false; error: string };

/** A call's arguments as JSON when they parse, else the raw text: for reports, never for execution. */
export function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function validateCall(call: ToolCall, tools: ReadonlyMap<string, ResolvedTool>): Validation {
  const tool = tools.get(call.function.name);
  if (!tool) return { ok: false, error: unknownToolMessage(call.function.name, [...tools.keys()]) };
  const raw = call.function.arguments.trim();
  let parsed: unknown;
  try {
    parsed = raw === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: malformedArgumentsMessage(tool.name, error) };
  }
  const schema = tool.definition.args as z.ZodObject | null;
  if (!schema) return { ok: true, value: { call, tool, args: undefined } };
  const result = schema.safeParse(parsed);
  if (!result.success) return { ok: false, error: invalidArgumentsMessage(tool.name, result.error) };
  return { ok: true, value: { call, tool, args: result.data } };
}
