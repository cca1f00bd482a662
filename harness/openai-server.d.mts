/**
 * Types for openai-server.mjs, the local OpenAI-compatible Chat Completions server that tests and
 * benchmarks script instead of calling a real model. Kept free of Node types so any tsconfig can use it.
 */

import type { ScriptedServer } from './scripted-server.mjs';

export interface ScriptedToolCall {
  name: string;
  /** Sent as is, in fragments: may be malformed JSON on purpose. */
  arguments: string;
  id?: string;
}

export interface StreamUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A successful streamed answer. */
export interface StreamReply {
  /** Sent as several content deltas of `chunkSize` characters. */
  text?: string;
  /** Each sent as a first fragment (id, type, name, empty arguments), then argument fragments. */
  toolCalls?: ScriptedToolCall[];
  /** The `model` of every chunk; defaults to the requested model. */
  model?: string;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Defaults to an estimate of about four characters a token. */
  usage?: StreamUsage;
  /** Characters per fragment; default 4. */
  chunkSize?: number;
  /** Pause between SSE writes; default 0. */
  chunkDelayMs?: number;
  /** The SSE comment sent after the role chunk; default `OPENROUTER PROCESSING`; false sends none. */
  comment?: string | false;
  /** Send tool calls without ids, as some servers do. */
  omitToolCallIds?: boolean;
  /** No usage chunk even when the request asked for one. */
  omitUsage?: boolean;
  /** End the stream without `data: [DONE]`. */
  omitDone?: boolean;
  /** Sent as `data: {"error": ...}` after the content; then the stream ends. */
  streamError?: Record<string, unknown>;
  /** Write this many `data:` events, then nothing more, keeping the connection open. */
  stallAfter?: number;
}

/** A plain HTTP answer, typically an error. */
export interface HttpReply {
  status: number;
  /** An object is sent as JSON, a string as is; by default an OpenAI-style `{ error: {...} }`. */
  body?: Record<string, unknown> | string;
  headers?: Record<string, string>;
}

export type Reply = StreamReply | HttpReply;

/** A Chat Completions request body as a client sends it; nothing is validated. */
export interface RecordedBody {
  model?: string;
  messages?: Array<{ role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; null when it was not JSON. */
  body: RecordedBody | null;
  /** Whether the client went away before the reply was complete. */
  closedEarly: boolean;
  /** Which TCP connection carried it, numbered from 1 in the order the server accepted them. */
  connection: number;
}

export type Responder = (body: RecordedBody, request: RecordedRequest) => Reply | Promise<Reply>;

export interface OpenAIServerOptions {
  /** Answers when the queue is empty; by default echoes the last user message. */
  respond?: Responder;
  /** The initial queue. */
  replies?: Reply[];
}

/** The origin is `url`; an OpenAI client is given `baseURL`. */
export interface OpenAIServer extends ScriptedServer<Reply, RecordedRequest> {
  /** What an OpenAI client takes as its base URL: the origin plus `/v1`. */
  readonly baseURL: string;
}

export function startOpenAIServer(options?: OpenAIServerOptions): Promise<OpenAIServer>;

/** The SSE frames of one streamed answer, in the order and shape OpenAI sends them. */
export function streamFrames(reply: StreamReply, request: RecordedBody): string[];
