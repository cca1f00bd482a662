/**
 * The engine's ports: the interfaces it talks to and nothing more (THR-1, THR-4): the thread's store
 * (messages, key-value, queue, interactions), its file store, a model provider, the frame sink, an
 * isolate loader for sandboxed programs (CODE-1), what a turn borrows from its thread (ThreadHost:
 * children, the parent, programs, MCP tools, waking), and
 * StoreView, the base of views that change what one part of the loop sees of the store.
 */
export type { EffectQueue, QueuedEffect } from './effect-queue.js';
export type { FileListing, FileStore, ListOptions, StoredFileMeta } from './file-store.js';
export type { Frame, FrameSink, NumberedFrame } from './frames.js';
export type {
  ModelRequest,
  ModelResponse,
  ModelTool,
  ModelUsage,
  Provider,
  RequestSettings,
  StreamHandlers,
  ToolCallDelta,
  UsageTotals,
} from './provider.js';
export { ProviderError } from './provider.js';
export type {
  SandboxCode,
  SandboxFailureKind,
  SandboxHost,
  SandboxIsolate,
  SandboxLoader,
  SandboxLog,
  SandboxOutcome,
} from './sandbox.js';
export type { NestedPlace } from './store-view.js';
export { NestedStore, StoreView } from './store-view.js';
export type { ConnectedTool, SpendEstimate, SpendPort, ThreadHost } from './thread-host.js';
export type { ChildEntry, NewMessage, QueuedMessage, ThreadInfo, ThreadStore } from './thread-store.js';
