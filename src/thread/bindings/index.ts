/** The bindings room's door: what the rest of the runtime may use of it. */
export type { RuntimeEnv } from './env.js';
export { R2FileStore } from './r2-file-store.js';
export type {
  ApiError,
  ChildOutcome,
  CreateThreadInput,
  DeferredChildView,
  InitialMessage,
  JsonValue,
  MessagePage,
  PostMessageAnswer,
  PostMessageInput,
  RpcResult,
  SpawnChildInput,
  ThreadDetails,
  ThreadRpc,
} from './thread-api.js';
export { fail, notFound, ok } from './thread-api.js';
export type { IndexedThread } from './thread-index.js';
export { ThreadIndex } from './thread-index.js';
export { threadStub } from './thread-stub.js';
