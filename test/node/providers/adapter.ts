/**
 * What the provider conformance suite asks of each provider (conformance.test.ts): an adapter that
 * scripts the vendor's local server (or stub binding) in one vocabulary shared by every vendor,
 * builds the vendor's Provider against it, and reads back what the server received. Each adapter
 * translates this vocabulary into its vendor's own wire: one file per vendor beside this one.
 */
import type { ModelRequest, Provider } from '../../../src/engine/ports/index.js';
import type { RetryOptions } from '../../../src/providers/transport/index.js';
import { helloRequest } from '../../support/provider-kit.js';

/** A tool call as scripted: `arguments` is sent as is, cut into fragments where the protocol streams them. */
export interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

/** One successful answer, in every vendor's words. */
export interface Answer {
  text?: string;
  toolCalls?: ScriptedCall[];
  /** Characters per text (and argument) fragment; default 4. */
  chunkSize?: number;
  /** What the server counted; prompt + completion must make the total. */
  usage?: { prompt: number; completion: number; total: number };
  /** Send this many text deltas, then nothing more, keeping the stream open. */
  stallAfterDeltas?: number;
}

/** The statuses a failure can be scripted with: each vendor has its own body (or binding error) for them. */
export type FailureStatus = 400 | 403 | 429 | 503;

/** An image as the vendor received it. */
export interface SentImage {
  mimeType: string;
  data: string;
}

/** A body source for the provider's next calls, before the server (or stub) answers the later ones. */
export type BodySource = () => ReadableStream<Uint8Array>;

export interface ProviderAdapter {
  /** The provider as models name it: `openai`, `anthropic`, `google`, `workers-ai`. */
  readonly name: string;
  /** How the provider names itself in its errors. */
  readonly errorName: string;
  /** The vendor model id the requests ask for. */
  readonly model: string;
  /** Whether the vendor can ask for a wait (Retry-After); the Workers AI binding carries no header. */
  readonly asksForWaits: boolean;
  /** Whether tool-call arguments travel as text, so malformed JSON reaches the provider (Gemini's are objects). */
  readonly argumentsAsText: boolean;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Forgets what was scripted and what was received. */
  reset(): void;
  /**
   * The vendor's provider against the local server (a zero sleep unless `options` brings one); its
   * first calls are answered by `sources`, one each, the later ones by the server.
   */
  provider(options?: RetryOptions, sources?: BodySource[]): Provider;
  /** Scripts the next answers, in order. */
  answer(...answers: Answer[]): void;
  /** Scripts a failure with the vendor's own error body, asking to wait `retryAfterSeconds` when the vendor can. */
  fail(status: FailureStatus, message: string, retryAfterSeconds?: number): void;
  /** The message of the provider's error for such a failure. */
  failureMessage(status: FailureStatus, message: string): string;
  /** The vendor's streamed bytes for an answer, event by event. */
  frames(answer: Answer): string[];
  /** How many requests reached the server. */
  calls(): number;
  /** Whether the client went away before the nth answer was complete. */
  closedEarly(index: number): boolean;
  /** The images the nth request carried, in order. */
  imagesSent(index: number): SentImage[];
  /** The content of the nth request's first user turn, in the vendor's own wire form. */
  userTurnSent(index: number): unknown;
}

/** A request for `adapter`'s model: a system prompt and one user message, unless overridden. */
export function requestFor(adapter: ProviderAdapter, overrides: Partial<ModelRequest> = {}): ModelRequest {
  return helloRequest(adapter.model, overrides);
}

/**
 * The frames up to and including the first that carries `text` as a JSON string: an answer cut
 * just after its first text delta reached the client, whatever the vendor sends before it.
 */
export function throughText(frames: string[], text: string): string[] {
  const at = frames.findIndex((frame) => frame.includes(JSON.stringify(text)));
  if (at < 0) throw new Error(`no frame carries ${JSON.stringify(text)}`);
  return frames.slice(0, at + 1);
}

/** An image from a `data:` URL, or null for any other URL. */
export function dataURLImage(url: string): SentImage | null {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data ? { mimeType: data[1] as string, data: data[2] as string } : null;
}

/** The images of Chat Completions messages (OpenAI-compatible servers, the Workers AI binding). */
export function chatCompletionsImages(messages: unknown): SentImage[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const content: unknown = message?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((part) => {
      const image = part?.type === 'image_url' ? dataURLImage(String(part.image_url?.url)) : null;
      return image ? [image] : [];
    });
  });
}

/** A fetch whose first calls are answered by `sources`, the later ones by the network. */
export function sourcedFetch(sources: BodySource[]): typeof fetch {
  let next = 0;
  return async (input, init) => {
    const source = sources[next++];
    if (!source) return fetch(input, init);
    return new Response(source(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
