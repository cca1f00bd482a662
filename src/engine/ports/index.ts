/** The ports room's door: what the rest of the runtime may use of it. */
export type { FileListing, FileStore, StoredFileMeta } from './file-store.js';
export type { Frame, FrameSink, NumberedFrame } from './frames.js';
export type { ModelRequest, ModelResponse, ModelTool, ModelUsage, Provider, StreamHandlers } from './provider.js';
export { ProviderError } from './provider.js';
export { StoreView } from './store-view.js';
export type { NewMessage, QueuedMessage, ThreadInfo, ThreadStore } from './thread-store.js';
