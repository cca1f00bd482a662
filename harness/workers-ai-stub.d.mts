/**
 * Types for workers-ai-stub.mjs, the stand-in for the Workers AI binding (`env.AI`) that tests and
 * benchmarks script instead of calling Cloudflare. Kept free of Node types so any tsconfig can use it.
 */

export interface StubToolCall {
  name: string;
  /** A string is sent as is (it may be malformed on purpose); an object is serialised. */
  arguments?: string | Record<string, unknown>;
  /** Default a generated `chatcmpl-tool-...` id (streamed and Chat Completions answers only). */
  id?: string;
}

export interface StubUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** A successful answer, streamed or whole depending on the request's `stream`. */
export interface AnswerReply {
  /** Streamed in pieces of `chunkSize` characters. */
  text?: string;
  /** JSON mode: the object the model produced (the native output's `response`). */
  json?: Record<string, unknown>;
  toolCalls?: StubToolCall[];
  /** `native` (default: Llama, Mistral, ...) or `chat-completions` (GLM, Kimi, gpt-oss, ...). */
  format?: 'native' | 'chat-completions';
  /** Defaults to an estimate of about four characters a token. */
  usage?: StubUsage;
  /** Chat Completions answers only; default `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Characters per fragment; default 4. */
  chunkSize?: number;
  /** Pause between events; default 0. */
  chunkDelayMs?: number;
  omitUsage?: boolean;
  omitDone?: boolean;
  /** Deliver this many events, then nothing more while keeping the stream open. */
  stallAfter?: number;
  /** Deliver this many events, then fail the stream with `failWith`. */
  failAfter?: number;
  /** Default `Network connection lost.` */
  failWith?: string;
}

/** `run` rejects with an `InferenceUpstreamError` carrying this message, e.g. `3040: Capacity temporarily exceeded`. */
export interface ThrowReply {
  throws: string;
  /** The error's name; default `InferenceUpstreamError`. */
  errorName?: string;
}

/** `run` never answers; it rejects when the call's signal aborts. */
export interface HangReply {
  hang: true;
}

export type StubReply = AnswerReply | ThrowReply | HangReply;

export interface RecordedCall {
  model: string;
  /** The inputs as the binding serialises them (a JSON copy taken at the call). */
  inputs: Record<string, unknown>;
  /** Whether the call was given an abort signal. */
  signal: boolean;
  /** Whether the reader cancelled the answer's stream before it ended. */
  cancelled: boolean;
}

export type StubResponder = (
  inputs: Record<string, unknown>,
  model: string,
  call: RecordedCall,
) => StubReply | Promise<StubReply>;

export interface WorkersAIStubOptions {
  /** Answers when the queue is empty; by default echoes the last user message. */
  respond?: StubResponder;
  /** The initial queue. */
  replies?: StubReply[];
}

export interface WorkersAIStub {
  /** Every call, in order. */
  readonly calls: RecordedCall[];
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** Answers for the next calls, in order. */
  enqueue(...replies: StubReply[]): void;
  /** How many queued replies are still unused. */
  readonly pending: number;
  /** Empties the queue and the call log. */
  reset(): void;
}

export class InferenceUpstreamError extends Error {
  constructor(message: string, name?: string);
}

export function createWorkersAIStub(options?: WorkersAIStubOptions): WorkersAIStub;

/** The server-sent events of one streamed answer, each `data: ...\n\n`, in the binding's order. */
export function streamFrames(reply: AnswerReply, model?: string, inputs?: Record<string, unknown>): string[];

/** The exact bytes of one streamed answer, as the binding's stream delivers them. */
export function streamBytes(reply: AnswerReply, model?: string, inputs?: Record<string, unknown>): Uint8Array;

/** The parsed JSON output of an unstreamed answer. */
export function wholeAnswer(
  reply: AnswerReply,
  model?: string,
  inputs?: Record<string, unknown>,
): Record<string, unknown>;
