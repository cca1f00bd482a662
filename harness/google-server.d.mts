/**
 * Types for google-server.mjs, the local Gemini API server that tests and benchmarks script instead
 * of calling a real model. Kept free of Node types so any tsconfig can use it.
 */

import type { ScriptedServer } from './scripted-server.mjs';

export interface ScriptedFunctionCall {
  name: string;
  /** Sent whole, as Gemini sends function calls. Default `{}`. */
  args?: Record<string, unknown>;
  /** Gemini's API sends no id; set one to play a server that does. */
  id?: string;
}

export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** A successful streamed answer. */
export interface StreamReply {
  /** Sent in pieces of `chunkSize` characters, one chunk each. */
  text?: string;
  /** Sent first, as `thought: true` parts. */
  thoughts?: string;
  /** Each sent whole, after the text. */
  functionCalls?: ScriptedFunctionCall[];
  /** Function calls per chunk; default 1. */
  callsPerChunk?: number;
  /** Whether the first call carries a `thoughtSignature`; default true. */
  thoughtSignature?: boolean;
  /** Default `STOP`. */
  finishReason?: string;
  /** Sent with the finish reason. */
  safetyRatings?: Record<string, unknown>[];
  /** The final usage; earlier chunks carry running counts. Default: an estimate. */
  usage?: UsageMetadata;
  /** Default: the model of the request path. */
  modelVersion?: string;
  /** Characters per text piece; default 4. */
  chunkSize?: number;
  /** Pause between events; default 0. */
  chunkDelayMs?: number;
  /** The prompt is blocked: a single chunk with `promptFeedback.blockReason`. */
  blockReason?: string;
  /** Sent as `data: {"error": ...}` after the content; then the stream ends. */
  streamError?: Record<string, unknown>;
  /** End the stream without the finish chunk. */
  omitFinish?: boolean;
  /** Write this many events, then nothing more, keeping the connection open. */
  stallAfter?: number;
}

/** A plain HTTP answer, typically an error. */
export interface HttpReply {
  status: number;
  /** An object is sent as JSON, a string as is; by default a Google API error for the status. */
  body?: Record<string, unknown> | string;
  headers?: Record<string, string>;
  /** For the default body: a `google.rpc.RetryInfo` detail, e.g. "2s". */
  retryDelay?: string;
}

export type Reply = StreamReply | HttpReply;

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

/** A GenerateContentRequest as a client sends it; nothing is validated. */
export interface RecordedBody {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  systemInstruction?: { role?: string; parts?: GeminiPart[] };
  tools?: Array<{
    functionDeclarations?: Array<{
      name: string;
      description?: string;
      parameters?: unknown;
      parametersJsonSchema?: unknown;
    }>;
  }>;
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  generationConfig?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The model named in the path, e.g. `gemini-2.5-flash`. */
  model: string | null;
  /** Lower-case header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; null when it was not JSON. */
  body: RecordedBody | null;
  /** Whether the client went away before the reply was complete. */
  closedEarly: boolean;
}

export type Responder = (body: RecordedBody, request: RecordedRequest) => Reply | Promise<Reply>;

export interface GoogleServerOptions {
  /** Answers when the queue is empty; by default echoes the last user text. */
  respond?: Responder;
  /** The initial queue. */
  replies?: Reply[];
  /** When set, requests without this `x-goog-api-key` (or `?key=`) are refused as Gemini refuses them. */
  apiKey?: string;
}

/** Its `url`, the origin, is what the Google provider takes as its base URL. */
export type GoogleServer = ScriptedServer<Reply, RecordedRequest>;

export function startGoogleServer(options?: GoogleServerOptions): Promise<GoogleServer>;

/** The SSE events of one streamed answer, exactly as written to the wire. */
export function streamFrames(reply: StreamReply, request: RecordedBody, model?: string): string[];

/** A Google API error body: `{ error: { code, message, status, details? } }`. */
export function googleError(
  code: number,
  message?: string,
  retryDelay?: string,
): { error: { code: number; message: string; status: string; details?: Record<string, unknown>[] } };

/** JSON as Google's servers write stream chunks: a space after each colon, none after commas. */
export function googleJson(value: unknown): string;
