/**
 * What every MCP tool call knows (THR-5, THR-6): the caller the bearer key stands for, the Worker's
 * bindings and the application; and how failures become tool results. A failure the caller can act
 * on (an unknown thread, missing variables, a failed turn) is a result with `isError`, so the
 * client's model reads it, never a JSON-RPC error.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Registry } from '../../engine/registry/index.js';
import type { Principal } from '../../thread/access/index.js';
import { type ApiError, type RuntimeEnv, threadStub } from '../../thread/bindings/index.js';
import { HttpError } from '../contract/index.js';

export interface McpCallContext {
  env: RuntimeEnv;
  /** The user the bearer key stands for: every thread a tool touches must be theirs (THR-6). */
  principal: Principal;
  registry: Registry;
  /** How long an agent tool follows a turn before answering that it still runs. */
  turnWaitMs: number;
  /** Keeps the request alive until the promise settles (a stop sent after the answer). */
  waitUntil(promise: Promise<unknown>): void;
}

/** Stops the thread's turn through the existing stop path: the step is aborted, its children stop. */
export function stopThread(context: McpCallContext, threadId: string): void {
  context.waitUntil(
    threadStub(context.env, threadId)
      .stop(context.principal, threadId)
      .catch((error: unknown) => console.error(`stopping thread ${threadId} for a cancelled call failed:`, error)),
  );
}

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The API's error as a tool result: its code and message, as `/api` would answer them. */
export function apiErrorResult(error: ApiError): CallToolResult {
  const details = error.details === undefined ? '' : ` ${JSON.stringify(error.details)}`;
  return errorResult(`${error.code}: ${error.message}${details}`);
}

/** Runs a tool body; the HttpErrors the shared route helpers throw become error results. */
export async function asToolResult(act: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await act();
  } catch (error) {
    if (error instanceof HttpError) return apiErrorResult(error.apiError);
    throw error;
  }
}

/** A JSON value as the text content of a result, beside the same value as structured content. */
export function jsonResult(value: object): CallToolResult {
  const structuredContent: Record<string, unknown> = { ...value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent };
}
