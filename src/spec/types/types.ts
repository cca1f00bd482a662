/**
 * The public data types of the Standard Agents spec (seed 001 section 10): what tools return, the
 * files they hand back, and the message records threads keep.
 */

export interface TextContent {
  type: 'text';
  text: string;
}

export interface ImageContent {
  type: 'image';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
}

export type ToolContent = TextContent | ImageContent;

/** A new file produced by a tool; the runtime stores it under `/attachments/` (ATT-1). */
export interface ToolAttachment {
  name: string;
  mimeType: string;
  /** Base64-encoded bytes. */
  data: string;
  width?: number;
  height?: number;
}

/** A file already in the thread filesystem; passed through without being stored again (ATT-2). */
export interface AttachmentRef {
  id: string;
  type: 'file';
  path: string;
  name: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  description?: string;
}

/**
 * What every tool returns (EXE-4). `stack` is stored for debugging, never shown to the model.
 * `result` is text; a tool declaring an output schema may return the value itself (OUT-1).
 */
export interface ToolResult<Result = string> {
  status: 'success' | 'error';
  result?: Result;
  error?: string;
  stack?: string;
  attachments?: Array<ToolAttachment | AttachmentRef>;
}

/**
 * The uniform result envelope of seed 003, recorded with every tool message, streamed and replayed
 * (EXE-4 Resolved: authors return ToolResult, the runtime stores this).
 */
export type ToolEnvelope =
  | { type: 'output'; data: unknown; metadata: EnvelopeMetadata }
  | { type: 'error'; error_text: string; metadata: EnvelopeMetadata };

export interface EnvelopeMetadata {
  duration_ms: number;
  /** A generator tool's progress events, in the order they were yielded (KIND-2). */
  progress?: unknown[];
  truncated?: boolean;
  output_path?: string;
}

export interface VariableDefinition {
  name: string;
  type: 'text' | 'secret';
  required: boolean;
  /** Not inherited from a parent thread (VAR-4). */
  scoped?: boolean;
  description: string;
  /**
   * A value used when no later level provides one: tools, then prompts, then agents declare
   * defaults, and a thread's own value wins over all of them (VAR-2).
   */
  default?: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** A message record in the Standard Agents shape, plus the runtime's own fields. */
export interface Message {
  id: string;
  /** Position in the thread's log; strictly increasing, usable as a `?after=` cursor. */
  seq: number;
  role: MessageRole;
  content: string | null;
  name: string | null;
  tool_calls: ToolCall[] | null;
  tool_call_id: string | null;
  /** Milliseconds since the epoch. */
  created_at: number;
  parent_id: string | null;
  depth: number;
  silent: boolean;
  metadata: Record<string, unknown> | null;
  tool_status: 'success' | 'error' | null;
  attachments: AttachmentRef[] | null;
  envelope: ToolEnvelope | null;
}

/**
 * `waiting`: a tool call waits for an answer (see the thread's `waiting_for`); `awaiting_hitl`: the
 * answer it waits for is a human-in-the-loop tool's (KIND-4).
 */
export type ThreadStatus = 'idle' | 'running' | 'waiting' | 'awaiting_hitl' | 'error' | 'terminated';
