/**
 * Types for otlp-receiver.mjs, the local OTLP/HTTP trace receiver of the tests and the bench. Kept
 * free of Node types so any tsconfig can use it.
 */

import type { ReceivedSpan } from './otlp-decode.mjs';

export type { ReceivedEvent, ReceivedSpan, ReceivedValue } from './otlp-decode.mjs';

export interface ReceivedRequest {
  headers: Record<string, string>;
  /** The media type of the request, without parameters. */
  contentType: string;
  bytes: number;
  spans: number;
  /** What the receiver answered; 0 while a hanging request waits. */
  status: number;
}

/** `redirect` answers 307 to /v1/traces again, so a client that follows it is seen asking twice. */
export type ReceiverMode = 'ok' | '500' | '400' | 'redirect' | 'hang';

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `<url>/v1/traces`. */
  endpoint: string;
  /** How many requests reached /v1/traces, answered or not. */
  readonly requests: number;
  received(): ReceivedRequest[];
  spans(): ReceivedSpan[];
  answerWith(mode: ReceiverMode): void;
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export function startOtlpReceiver(): Promise<OtlpReceiver>;
