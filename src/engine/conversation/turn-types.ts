/**
 * What a turn is given and how it ends (THR-3): the thread's store, files, registry, provider, frame
 * sink and abort signal, and the factory of each call's state. The loop (turn/), nested prompt runs
 * (subagents/) and the thread layer all speak these types.
 */
import type { AgentDefinition, McpServerConfig, ModelDefinition, ToolCall } from '../../spec/index.js';
import type { ToolGuard } from '../execute/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { StateFactory } from '../guards/index.js';
import type { FrameSink, Provider, ThreadStore } from '../ports/index.js';
import type { Registry, ResolvedTool } from '../registry/index.js';

export interface TurnDeps {
  /** The thread's variable values: `optional` tools are offered by them (SUB-3). */
  variables?: Readonly<Record<string, string>>;
  store: ThreadStore;
  files: ThreadFiles;
  registry: Registry;
  agent: AgentDefinition;
  provider(model: ModelDefinition): Provider;
  emit: FrameSink;
  signal: AbortSignal;
  /** The state a tool call receives; `gate` checks what the call does while it runs (access-gate.ts). */
  createState: StateFactory;
  guards?: readonly ToolGuard[];
  scrub?(text: string): string;
  /** Called before each model request and each tool batch: the thread re-arms its safety alarm. */
  onProgress?(): void;
  now?(): number;
  /**
   * The tools of the MCP servers a prompt declares, as this thread knows them (LOCK-4).
   */
  connectedTools?(
    servers: Readonly<Record<string, McpServerConfig>>,
    signal: AbortSignal,
  ): Promise<readonly ResolvedTool[]>;
}

export type TurnOutcome =
  | { kind: 'done'; reason: 'response' | 'nothing_to_do' | 'handoff' | 'session_turns' }
  /** The side's stop tool was called; `answer` is its `stopToolResponseProperty` or its result (DEF-6). */
  | { kind: 'done'; reason: 'stop_tool'; answer: string }
  /** KIND-7: the round limit refused the newest step's calls; they stay in the log, unexecuted. */
  | { kind: 'done'; reason: 'round_limit'; pendingToolCalls: ToolCall[] }
  /** A tool call waits for an answer; the answer resumes the turn (KIND-7). */
  | { kind: 'waiting' }
  | { kind: 'stopped' }
  /** A step or budget limit ended the turn; `code` names which (default `step_limit`). */
  | { kind: 'limit'; message: string; code?: 'step_limit' | 'budget_exceeded' | 'context_overflow' }
  /** The turn failed; `code` says how when it is more than a model or runtime failure. */
  | { kind: 'failed'; message: string; code?: 'response_format' };
