/** Types for anthropic-events.mjs, the Messages API's streamed answers for tests and benchmarks. */

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** `input` is sent as is, in `input_json_delta` fragments; '' sends none. */
  | { type: 'tool_use'; name: string; input: string; id?: string };

export interface MessageReply {
  /** In order; `text` and `toolCalls` are shorthands appended after them. */
  blocks?: ReplyBlock[];
  text?: string;
  toolCalls?: { name: string; input: string; id?: string }[];
  /** Default `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: string;
  /** `message_start` usage; default 10 input tokens. */
  usage?: Record<string, number>;
  /** `message_delta` usage; default an output count. */
  outputUsage?: Record<string, number>;
  model?: string;
  /** Characters per delta; default 4. */
  chunkSize?: number;
  /** An `error` event, sent right after `message_start` (`start`) or after the content (`end`, the default). */
  error?: { type: string; message: string };
  errorAt?: 'start' | 'end';
  /** End the stream without `message_stop`. */
  omitStop?: boolean;
  /** Answer `stream: true` with one JSON message instead. */
  asJson?: boolean;
}

/** The server-sent events of a streamed message, byte for byte. */
export function frames(reply: MessageReply, model: string): string[];

/** The same answer as one JSON message. */
export function message(reply: MessageReply, model: string): unknown;
